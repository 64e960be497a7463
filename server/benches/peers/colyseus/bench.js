// Closed-loop driver of Fray's bench (`--scenario peers`) against the Colyseus room of
// server.js, which it starts as a child process on 127.0.0.1. One GM and S spectators
// (colyseus.js clients in this process). The GM sends its next command only while fewer than
// W commands are incomplete; a command is complete when the GM has its "a" and every spectator
// its last "e". With --rate R > 0 it sends R commands/s instead, whatever the answers.
// Prints one JSON object: the same fields as the Rust driver's runs.
// Usage: node bench.js --spectators 100 --window 1 --seconds 2 [--rate 0] [--events 3]
//        [--bytes 163]
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");
const { Client } = require("colyseus.js");

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? Number(process.argv[i + 1]) : fallback;
}
const S = option("spectators", 10);
const W = option("window", 1);
const SECONDS = option("seconds", 2);
const RATE = option("rate", 0);
const EVENTS = option("events", 3);
const BYTES = option("bytes", 163);

function startServer() {
  const child = spawn(process.execPath, [path.join(__dirname, "server.js")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("exit", (code) => reject(new Error(`server exited (${code})`)));
    child.stdout.on("data", (d) => {
      out += d;
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
  });
}

function pct(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.round((sorted.length - 1) * p)];
}

let server = null;

async function main() {
  const { child, port } = await startServer();
  server = child;
  const client = new Client(`ws://127.0.0.1:${port}`);
  const gm = await client.create("fight");
  const sent = []; // per tick (1-based index - 1): send time, ms
  const ackAt = [];
  const doneAt = []; // per tick: completion time
  const waiting = []; // per tick: spectators + GM still to receive it
  let complete = 0;
  let deliveries = 0;
  let wake = null;
  const arrive = (tick, now) => {
    const k = tick - 1;
    waiting[k] -= 1;
    if (waiting[k] === 0) {
      doneAt[k] = now;
      complete += 1;
      if (wake) wake();
    }
  };
  for (let s = 0; s < S; s++) {
    const room = await client.joinById(gm.roomId);
    room.onMessage("e", ([tick, last]) => {
      deliveries += 1;
      if (last === 1) arrive(tick, performance.now());
    });
  }
  gm.onMessage("a", ([tick]) => {
    const now = performance.now();
    ackAt[tick - 1] = now;
    arrive(tick, now);
  });
  const start = performance.now();
  const end = start + SECONDS * 1000;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let tick = 1; ; tick++) {
    if (RATE > 0) {
      const due = start + ((tick - 1) * 1000) / RATE;
      if (due >= end) break;
      const now = performance.now();
      if (due > now) await sleep(due - now);
    } else {
      if (performance.now() >= end) break;
      while (sent.length - complete >= W) {
        await new Promise((r) => (wake = r));
        wake = null;
      }
    }
    waiting.push(S + 1);
    sent.push(performance.now());
    gm.send("c", [tick, EVENTS, BYTES]);
  }
  const giveUp = performance.now() + 3000;
  while (complete < sent.length && performance.now() < giveUp) await sleep(10);
  const lat = [];
  const ack = [];
  let last = sent[0] ?? start;
  for (let k = 0; k < sent.length; k++) {
    if (doneAt[k] !== undefined) {
      lat.push(doneAt[k] - sent[k]);
      last = Math.max(last, doneAt[k]);
    }
    if (ackAt[k] !== undefined) ack.push(ackAt[k] - sent[k]);
  }
  lat.sort((a, b) => a - b);
  ack.sort((a, b) => a - b);
  const span = Math.max(1e-6, (last - (sent[0] ?? start)) / 1000);
  process.stdout.write(
    JSON.stringify({
      server: "colyseus",
      spectators: S,
      window: W,
      rate: RATE,
      sent: sent.length,
      complete: lat.length,
      acknowledged: ack.length,
      commands_per_sec: lat.length / span,
      deliveries_per_sec: deliveries / span,
      p50_ms: pct(lat, 0.5),
      p99_ms: pct(lat, 0.99),
      max_ms: pct(lat, 1),
      ack_p50_ms: pct(ack, 0.5),
      ack_p99_ms: pct(ack, 0.99),
    }) + "\n",
  );
  child.kill("SIGKILL");
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`${e.stack || e}\n`);
  if (server) server.kill("SIGKILL");
  process.exit(1);
});
