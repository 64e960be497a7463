// The game of Fray's boardgame.io peer: one player (the GM) whose one move stands for a
// command. It does no game work: it stores the tick and `events` strings of about `bytes`
// bytes (like Fray's event frames), which boardgame.io sends to every client as its update.
"use strict";
const Fight = {
  name: "fight",
  setup: () => ({ tick: 0, events: [] }),
  moves: {
    command: {
      move: ({ G }, tick, events, bytes) => {
        const pad = "x".repeat(Math.max(0, bytes - 24));
        G.tick = tick;
        G.events = Array.from({ length: events }, (_, i) => `${tick}.${i}:${pad}`);
      },
      // Only the server runs the move: the GM's client waits for the server's update.
      client: false,
    },
  },
};
module.exports = { Fight };
