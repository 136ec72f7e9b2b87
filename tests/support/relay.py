"""A TCP relay in front of a real server, whose connections can be made to go silent: the
path of a phone that changed networks, still open on both ends but carrying nothing."""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType


class Relay:
    """Relays 127.0.0.1:``port`` (the relay's own) to 127.0.0.1:``target``; :meth:`freeze`
    silences every connection made so far, while new ones pass."""

    def __init__(self, target: int) -> None:
        """Listen on a free port."""
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._open: list[tuple[socket.socket, socket.socket, threading.Event]] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def freeze(self) -> None:
        """Every connection made so far carries nothing from now on (nor closes)."""
        with self._lock:
            for _, _, silent in self._open:
                silent.set()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            silent = threading.Event()
            with self._lock:
                self._open.append((client, server, silent))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b, silent), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket, silent: threading.Event) -> None:
        try:
            while not silent.is_set():
                data = src.recv(65536)
                if not data or silent.is_set():
                    break
                dst.sendall(data)
        except OSError:
            pass
        if not silent.is_set():  # an end closed: pass it on (a silent path never does)
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        """Stop listening and drop every connection."""
        self.listener.close()
        with self._lock:
            for client, server, _ in self._open:
                client.close()
                server.close()

    def __enter__(self) -> Relay:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()
