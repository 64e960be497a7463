// Closed-loop driver of Fray's bench against the Colyseus room of server.js (colyseus.js
// clients; the loop and the output are those of ../closed-loop.js).
// Usage: node bench.js --spectators 100 --window 1 --seconds 2 [--rate 0] [--events 3]
//        [--bytes 163]
"use strict";
const path = require("node:path");
const { Client } = require("colyseus.js");
const { run } = require("../closed-loop");

run("colyseus", path.join(__dirname, "server.js"), async (port, spectators, peer) => {
  const client = new Client(`ws://127.0.0.1:${port}`);
  const gm = await client.create("fight");
  for (let s = 0; s < spectators; s++) {
    const room = await client.joinById(gm.roomId);
    room.onMessage("e", ([tick, last]) => {
      peer.delivered(1);
      if (last === 1) peer.seen(tick);
    });
  }
  gm.onMessage("a", ([tick]) => peer.acked(tick));
  return (tick, events, bytes) => gm.send("c", [tick, events, bytes]);
});
