#!/usr/bin/env python3
"""bench/slow-clients.py - holds N slow client connections to HOST:PORT until killed: half send
nothing, half trickle a request head one byte per INTERVAL seconds (a slowloris). A connection the
gateway closes (its timeouts doing their job) is opened again at once, so N stay held throughout.

usage: slow-clients.py HOST PORT [N=1000] [INTERVAL=0.5]
"""
import select
import socket
import sys
import time

HEAD = b"GET /slow HTTP/1.1\r\nHost: a\r\nX-Slow: "


def open_one(host, port):
    s = socket.create_connection((host, port))
    s.setblocking(False)
    return s


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    interval = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5
    conns = [open_one(host, port) for _ in range(n)]
    sent = [0] * n
    reopened = 0
    next_tick = time.monotonic()
    while True:
        readable, _, _ = select.select(conns, [], [], max(0.0, next_tick - time.monotonic()))
        for s in readable:
            i = conns.index(s)
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                s.close()
                conns[i] = open_one(host, port)
                sent[i] = 0
                reopened += 1
        if time.monotonic() >= next_tick:
            next_tick += interval
            for i in range(0, n, 2):
                b = HEAD[sent[i]:sent[i] + 1] or b"x"
                try:
                    conns[i].send(b)
                    sent[i] += 1
                except OSError:
                    pass
            sys.stderr.write(f"\rheld {n}, reopened {reopened}")


if __name__ == "__main__":
    main()
