/**
 * The gateway's control thread: where health verdicts, ejections, reloads and endpoint updates
 * rebuild the routing state off the event loops.
 */
package io.tollgate.server.control;
