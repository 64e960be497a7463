// boardgame.io 0.50 peer of Fray's bench (`--scenario peers --peer-boardgameio`): the server
// with the game of game.js, in memory, on 127.0.0.1 and an ephemeral port printed as
// "PORT <n>". Usage: node server.js
"use strict";
const { Server } = require("boardgame.io/server");
const { Fight } = require("./game");

const server = Server({ games: [Fight], origins: [/127\.0\.0\.1:\d+/] });
// `run` listens on every interface; keep it to loopback.
const listen = server.app.listen.bind(server.app);
server.app.listen = (port, callback) => listen(port, "127.0.0.1", callback);
server.run(0).then(({ appServer }) => {
  process.stdout.write(`PORT ${appServer.address().port}\n`);
});
