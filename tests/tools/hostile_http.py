#!/usr/bin/env python3
# hostile_http.py FILE - an HTTP server on 127.0.0.1 that serves FILE's
# bytes the way a broken or hostile server would, one way a path prefix:
#
#	/ok/N		right: ranges, one ETag
#	/offset/N	206 whose Content-Range starts 16 bytes past the one
#			asked
#	/shortrange/N	206 whose Content-Range ends before the range asked
#	/cut/N		Content-Length right, half the body (none of a range
#			taken up again), then the socket closed
#	/extra/N	the right answer, then 64 bytes more on the connection
#	/loop/N		302 to itself, for ever
#	/file/N, /ftp/N, /gopher/N	302 to such a URL
#	/noloc/N	302 without a Location
#	/past/N		206 "bytes 0-2097151/1000": a range past the end it says
#	/bighead/N	headers without end (64 MiB of them, slowly enough)
#	/gzip/N		the range gzip-compressed, Content-Encoding: gzip
#	/etag/N		a new ETag on every answer
#	/notmod/N	304 Not Modified to every request, conditional or not
#	/overrun/N	206 with the right Content-Range, but Content-Length:
#			100000000000 and, after the range, bytes without end
#	/drip/N		206, its body sent 2 bytes a second
#	/longline/N	206 with a header line of 10 MB
#	/starzero/N	206 "Content-Range: bytes */0"
#
# It prints its port on stdout, and the path of every request on stderr
# as it comes, then serves until killed. Python is used
# in tests only; ggufed itself never needs it.
import gzip
import socket
import socketserver
import sys
import time

data = open(sys.argv[1], "rb").read()
size = len(data)
etag_n = [0]


def parse(req):
    lines = req.split(b"\r\n")
    path = lines[0].split(b" ")[1].decode()
    rng = None
    for l in lines[1:]:
        if l.lower().startswith(b"range:"):
            v = l.split(b"=", 1)[1].strip().decode()
            a, b = v.split("-")
            rng = (int(a), int(b) if b else size - 1)
    return path, rng


def head(status, hdrs, body_len=None):
    h = "HTTP/1.1 %s\r\n" % status
    for k, v in hdrs:
        h += "%s: %s\r\n" % (k, v)
    if body_len is not None:
        h += "Content-Length: %d\r\n" % body_len
    return (h + "\r\n").encode()


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        buf = b""
        while True:
            while b"\r\n\r\n" not in buf:
                more = self.request.recv(65536)
                if not more:
                    return
                buf += more
            req, buf = buf.split(b"\r\n\r\n", 1)
            path, rng = parse(req)
            print(path, file=sys.stderr, flush=True)
            if not self.answer(path, rng):
                return

    def send(self, b):
        try:
            self.request.sendall(b)
            return True
        except OSError:
            return False

    def answer(self, path, rng):
        kind = path.split("/")[1]
        if kind == "loop":
            return self.send(head("302 Found", [("Location", path)], 0))
        if kind in ("file", "ftp", "gopher"):
            loc = {"file": "file:///etc/passwd",
                   "ftp": "ftp://127.0.0.1/m.gguf",
                   "gopher": "gopher://127.0.0.1/m.gguf"}[kind]
            return self.send(head("302 Found", [("Location", loc)], 0))
        if kind == "noloc":
            return self.send(head("302 Found", [], 0))
        if kind == "bighead":
            self.send(b"HTTP/1.1 206 Partial Content\r\n")
            line = ("X-Filler: " + "a" * 1000 + "\r\n").encode()
            for i in range(64 * 1024):
                if not self.send(line):
                    return False
            return False
        if kind == "notmod":
            return self.send(head("304 Not Modified", [("ETag", '"fixed"')]))
        if kind == "longline":
            self.send(b"HTTP/1.1 206 Partial Content\r\nX-Long: " +
                      b"a" * (10 * 1000 * 1000) + b"\r\n\r\n")
            return False
        if kind == "starzero":
            return self.send(head("206 Partial Content",
                                  [("Content-Range", "bytes */0")], 0))
        a, b = rng if rng else (0, size - 1)
        b = min(b, size - 1)
        body = data[a:b + 1]
        etag = '"fixed"'
        if kind == "etag":
            etag_n[0] += 1
            etag = '"e%d"' % etag_n[0]
        cr = "bytes %d-%d/%d" % (a, b, size)
        hdrs = [("ETag", etag)]
        if kind == "offset":
            cr = "bytes %d-%d/%d" % (a + 16, b + 16, size)
        elif kind == "shortrange":
            cr = "bytes %d-%d/%d" % (a, a + 99, size)
            body = body[:100]
        elif kind == "past":
            cr = "bytes 0-2097151/1000"
        elif kind == "gzip":
            body = gzip.compress(body)
            hdrs.append(("Content-Encoding", "gzip"))
        hdrs.append(("Content-Range", cr))
        if kind == "cut":
            # half the first range; of a range taken up again, nothing
            self.send(head("206 Partial Content", hdrs, len(body)) +
                      body[:len(body) // 2 if a == 0 else 0])
            return False
        if kind == "overrun":
            # the range, then more for ever: a reader must stop by itself
            hdrs.append(("Content-Length", "100000000000"))
            if not self.send(head("206 Partial Content", hdrs) + body):
                return False
            while self.send(b"X" * 65536):
                pass
            return False
        if kind == "drip":
            if not self.send(head("206 Partial Content", hdrs, len(body))):
                return False
            for i in range(len(body)):
                if not self.send(body[i:i + 1]):
                    return False
                time.sleep(0.5)
            return True
        out = head("206 Partial Content", hdrs, len(body)) + body
        if kind == "extra":
            out += b"X" * 64
        return self.send(out)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


srv = Server(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
