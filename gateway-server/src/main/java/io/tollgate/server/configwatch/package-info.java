/**
 * Watching the configuration file ({@code config_watch}): a changed file, or a Kubernetes
 * ConfigMap whose mounted directory was swapped, is reloaded the way SIGHUP reloads it.
 */
package io.tollgate.server.configwatch;
