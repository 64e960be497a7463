// Closed-loop driver of Fray's bench against the boardgame.io server of server.js
// (boardgame.io's own clients over socket.io; the loop and the output are those of
// ../closed-loop.js). The GM is player 0 of a one-player match and makes the move `command`;
// the spectators are clients without a player. A client has tick t when its state's G.tick
// reaches t. boardgame.io rejects a move made on a stale state (its stateID), so one client
// cannot pipeline: only W = 1 runs. Usage: node bench.js --spectators 100 --window 1 --seconds 2
"use strict";
const path = require("node:path");
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Fight } = require("./game");
const { run } = require("../closed-loop");

async function post(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return res.json();
}

// Calls `each(t, events)` for every tick the client's state has passed since the last call.
function follow(client, each) {
  let last = 0;
  return new Promise((synced) => {
    client.subscribe((state) => {
      if (!state) return;
      synced();
      for (let t = last + 1; t <= state.G.tick; t++) each(t, state.G.events.length);
      last = Math.max(last, state.G.tick);
    });
  });
}

run("boardgame.io", path.join(__dirname, "server.js"), async (port, spectators, peer) => {
  const server = `http://127.0.0.1:${port}`;
  const { matchID } = await post(`${server}/games/fight/create`, { numPlayers: 1 });
  const { playerCredentials } = await post(`${server}/games/fight/${matchID}/join`, {
    playerID: "0",
    playerName: "gm",
  });
  const multiplayer = SocketIO({ server });
  const synced = [];
  for (let s = 0; s < spectators; s++) {
    const c = Client({ game: Fight, multiplayer, matchID, debug: false });
    synced.push(
      follow(c, (tick, events) => {
        peer.delivered(events);
        peer.seen(tick);
      }),
    );
    c.start();
  }
  const gm = Client({
    game: Fight,
    multiplayer,
    matchID,
    playerID: "0",
    credentials: playerCredentials,
    debug: false,
  });
  synced.push(follow(gm, (tick) => peer.acked(tick)));
  gm.start();
  await Promise.all(synced);
  return (tick, events, bytes) => gm.moves.command(tick, events, bytes);
}, { pipelining: false });
