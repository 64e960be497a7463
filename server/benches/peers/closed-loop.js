// The closed-loop driver shared by the Node peers of Fray's bench (`--scenario peers`):
// starts the peer's server script as a child process (it prints "PORT <n>" once it listens on
// 127.0.0.1), connects one GM and S spectators through the peer's own client, and measures as
// the Rust driver does. The GM sends its next command only while fewer than W commands are
// incomplete; a command is complete when the GM has its acknowledgement and every spectator
// its last event. With --rate R > 0 it sends R commands/s instead, whatever the answers.
// Prints one JSON object with the same fields as the Rust driver's runs.
// Options: --spectators S --window W --seconds T [--rate R] [--events 3] [--bytes 163]
"use strict";
const { spawn } = require("node:child_process");

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? Number(process.argv[i + 1]) : fallback;
}

function startServer(script) {
  const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
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
  return sorted.length === 0 ? null : sorted[Math.round((sorted.length - 1) * p)];
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// `connect(port, S, peer)` connects the GM and S spectators and returns `send(tick, events,
// bytes)`; the clients call `peer.acked(tick)` when the GM has a command's acknowledgement,
// `peer.seen(tick)` when a spectator has its last event, `peer.delivered(n)` per n events
// received by a spectator.
// `pipelining: false`: the peer accepts a client's next command only once that client has
// the previous one's result, so only W = 1 is measured (any other run is refused).
async function run(name, serverScript, connect, { pipelining = true } = {}) {
  const S = option("spectators", 10);
  const W = option("window", 1);
  const SECONDS = option("seconds", 2);
  const RATE = option("rate", 0);
  const EVENTS = option("events", 3);
  const BYTES = option("bytes", 163);
  let server = null;
  try {
    if (!pipelining && (W !== 1 || RATE > 0)) {
      throw new Error(`${name} cannot pipeline one client's commands: only --window 1 runs`);
    }
    const started = await startServer(serverScript);
    server = started.child;
    const sent = []; // per tick - 1: send time, ms
    const ackAt = [];
    const doneAt = [];
    const waiting = []; // per tick - 1: spectators + GM still to receive it
    let complete = 0;
    let deliveries = 0;
    let wake = null;
    const arrive = (tick, now) => {
      const k = tick - 1;
      if (!(waiting[k] > 0)) return;
      waiting[k] -= 1;
      if (waiting[k] === 0) {
        doneAt[k] = now;
        complete += 1;
        if (wake) wake();
      }
    };
    const peer = {
      acked: (tick) => {
        const now = performance.now();
        if (ackAt[tick - 1] === undefined && waiting[tick - 1] > 0) {
          ackAt[tick - 1] = now;
          arrive(tick, now);
        }
      },
      seen: (tick) => arrive(tick, performance.now()),
      delivered: (n) => {
        deliveries += n;
      },
    };
    const send = await connect(started.port, S, peer);
    const start = performance.now();
    const end = start + SECONDS * 1000;
    for (let tick = 1; ; tick++) {
      if (RATE > 0) {
        const due = start + ((tick - 1) * 1000) / RATE;
        if (due >= end) break;
        const now = performance.now();
        if (due > now) await sleep(due - now);
      } else {
        if (performance.now() >= end) break;
        // The window may never open (a lost message): the run still ends with its budget.
        while (sent.length - complete >= W && performance.now() < end) {
          await Promise.race([new Promise((r) => (wake = r)), sleep(end - performance.now())]);
          wake = null;
        }
        if (sent.length - complete >= W) break;
      }
      waiting.push(S + 1);
      sent.push(performance.now());
      send(tick, EVENTS, BYTES);
    }
    const giveUp = performance.now() + 3000;
    while (complete < sent.length && performance.now() < giveUp) await sleep(10);
    const lat = [];
    const ack = [];
    const first = sent.length > 0 ? sent[0] : start;
    let last = first;
    for (let k = 0; k < sent.length; k++) {
      if (doneAt[k] !== undefined) {
        lat.push(doneAt[k] - sent[k]);
        last = Math.max(last, doneAt[k]);
      }
      if (ackAt[k] !== undefined) ack.push(ackAt[k] - sent[k]);
    }
    lat.sort((a, b) => a - b);
    ack.sort((a, b) => a - b);
    const span = Math.max(1e-6, (last - first) / 1000);
    process.stdout.write(
      JSON.stringify({
        server: name,
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
    server.kill("SIGKILL");
    process.exit(0);
  } catch (e) {
    process.stderr.write(`${e.stack || e}\n`);
    if (server) server.kill("SIGKILL");
    process.exit(1);
  }
}

module.exports = { run };
