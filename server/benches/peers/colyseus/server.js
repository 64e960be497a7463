// Colyseus 0.16 peer of Fray's bench (`--scenario peers`): a room that does no game work.
// The GM's message "c" [tick, events, bytes] is answered by broadcasting `events` messages
// "e" [tick, last, padding] (about `bytes` each, like Fray's event frames) to every other
// client, then "a" [tick] to the GM (the acknowledgement of the closed loop).
// Usage: node server.js  (listens on 127.0.0.1, an ephemeral port, printed as "PORT <n>")
"use strict";
const { Server, Room } = require("@colyseus/core");
const { WebSocketTransport } = require("@colyseus/ws-transport");

class Fight extends Room {
  onCreate() {
    this.autoDispose = false;
    this.pads = new Map();
    this.onMessage("c", (gm, [tick, events, bytes]) => {
      let pad = this.pads.get(bytes);
      if (pad === undefined) {
        pad = "x".repeat(Math.max(0, bytes - 16));
        this.pads.set(bytes, pad);
      }
      for (let i = 0; i < events; i++) {
        this.broadcast("e", [tick, i === events - 1 ? 1 : 0, pad], { except: gm });
      }
      gm.send("a", [tick]);
    });
  }
}

const server = new Server({ transport: new WebSocketTransport(), greet: false, gracefullyShutdown: false });
server.define("fight", Fight);
server.listen(0, "127.0.0.1").then(() => {
  const address = server.transport.server.address();
  process.stdout.write(`PORT ${address.port}\n`);
});
