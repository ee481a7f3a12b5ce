/**
 * TLS material on disk: reading and checking the PEM certificate and key files the configuration
 * names, independent of how the configuration itself is read.
 */
package io.tollgate.core.tls;
