"""What every scripted model server shares: a quiet HTTP/1.1 handler whose writes go out at once, and a
threaded server started and stopped as a context manager. The wire modules add only their routes and replies."""
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietHandler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):  # quiet
        pass

    def setup(self):
        super().setup()
        # Each write goes out at once, as from Ollama (Go), uvicorn or Node: with Nagle's algorithm the end of a
        # body, a small write right after [DONE], waited for the client's delayed ACK (~40 ms).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class ThreadedServer:
    """Serves `handler` on 127.0.0.1 (`port` 0: any free one) from a daemon thread; `httpd.scripted` is self."""

    def __init__(self, handler, port=0):
        self.httpd = ThreadingHTTPServer(('127.0.0.1', port), handler)
        self.httpd.daemon_threads = True
        self.httpd.scripted = self
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={'poll_interval': 0.05}, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
