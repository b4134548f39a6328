// The bare node:http server of scripts/lib/load-test.js `startBareServer` (a child process):
// `node bare-server.js <port> <body file> <status> <content type>` answers the stored status,
// content type and body for every request, gzipped per request when asked.
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";

const [port, bodyFile, status, contentType] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile);
http
  .createServer((req, res) => {
    if (/\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
      zlib.gzip(body, (error, zipped) => {
        res.writeHead(Number(status), {
          "Content-Type": contentType,
          "Content-Encoding": "gzip",
          Vary: "Accept-Encoding",
          "Content-Length": zipped.length,
        });
        res.end(zipped);
      });
    } else {
      res.writeHead(Number(status), { "Content-Type": contentType, "Content-Length": body.length });
      res.end(body);
    }
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
