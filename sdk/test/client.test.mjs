// Tests of sdk/src/client.ts (built to sdk/dist/client.js by `npm run build`) on Node's test
// runner. Most run against a fake server made with the `ws` package, which plays the server's
// part message by message so that reconnects, stale patches and refusals happen on cue; the
// last one runs against the real fray-server binary when FRAY_SERVER_BIN names it (.ci/run
// sets it), and is skipped — visibly — otherwise.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket, { WebSocketServer } from "ws";
import { FrayClient, CommandRejected, PreviewRefused, applyPatch } from "../dist/client.js";

/** A fake server on a free port; `script(socket, message, state)` answers each message. */
async function fake(script) {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((r) => wss.once("listening", r));
  const seen = [];
  const sockets = [];
  wss.on("connection", (socket, req) => {
    sockets.push(socket);
    const conn = { protocol: socket.protocol, number: sockets.length };
    socket.on("message", (data) => {
      const msg = JSON.parse(String(data));
      seen.push({ conn: conn.number, msg });
      script(socket, msg, conn);
    });
  });
  const { port } = wss.address();
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    seen,
    sockets,
    close: () => new Promise((r) => { for (const s of sockets) s.terminate(); wss.close(r); }),
  };
}

test("the client's API is typed by the generated protocol types (tsc --strict on test/client-types.ts)", () => {
  const sdk = join(dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = join(sdk, "node_modules", "typescript", "bin", "tsc");
  const args = ["--noEmit", "--strict", "--target", "es2022", "--module", "es2022",
    "--moduleResolution", "bundler", "--lib", "es2022,dom", join("test", "client-types.ts")];
  const r = spawnSync(process.execPath, [tsc, ...args], { cwd: sdk, encoding: "utf8" });
  assert.equal(r.status, 0, `tsc: ${r.stdout}${r.stderr}`);
});

const send = (socket, msg) => socket.send(JSON.stringify(msg));
const welcome = (seq) => ({
  welcome: { protocol: 1, session: "s-1", role: "gm", seq, ruleset: "13th-age", commitment: "00" },
});
const wait = (what, check, ms = 5000) =>
  new Promise((resolve, reject) => {
    const start = Date.now();
    const tick = () => {
      const v = check();
      if (v) return resolve(v);
      if (Date.now() - start > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 5);
    };
    tick();
  });

test("applyPatch adds, removes and replaces by JSON pointer, and refuses what does not apply", () => {
  const doc = { a: [1, 2], "b/c": { "d~e": 1 }, x: null };
  const out = applyPatch(doc, [
    { op: "add", path: "/a/1", value: 9 },
    { op: "add", path: "/a/-", value: 3 },
    { op: "replace", path: "/b~1c/d~0e", value: 2 },
    { op: "remove", path: "/x" },
    { op: "add", path: "/n", value: { k: [] } },
  ]);
  assert.deepEqual(out, { a: [1, 9, 2, 3], "b/c": { "d~e": 2 }, n: { k: [] } });
  assert.deepEqual(doc, { a: [1, 2], "b/c": { "d~e": 1 }, x: null }, "the input is untouched");
  assert.throws(() => applyPatch(doc, [{ op: "replace", path: "/missing", value: 1 }]));
  assert.throws(() => applyPatch(doc, [{ op: "remove", path: "/a/5" }]));
  assert.throws(() => applyPatch(doc, [{ op: "add", path: "/a/01", value: 1 }]));
});

test("hello, watch, the view from a snapshot and patches, legal actions, commands answered", async () => {
  const server = await fake((socket, msg) => {
    if (msg.hello) {
      send(socket, welcome(2));
    } else if (msg.watch) {
      send(socket, { snapshot: { seq: 2, state: { phase: "setup", round: 0, combatants: [{ id: "a", hp: 5 }] } } });
      send(socket, { legal_actions: { seq: 2, actions: [{ actor: null, group: "Start battle", label: "", command: "start_battle" }] } });
    } else if (msg.command) {
      const { id, command } = msg.command;
      if (command === "start_battle") {
        send(socket, { event: { seq: 3, tick: 1, event: "battle_started" } });
        send(socket, { view_patch: { from_seq: 2, seq: 3, patch: [{ op: "replace", path: "/phase", value: "running" }, { op: "replace", path: "/combatants/0/hp", value: 4 }] } });
        send(socket, { legal_actions: { seq: 3, actions: [] } });
        send(socket, { accepted: { command_id: id, first_seq: 3, last_seq: 3 } });
      } else {
        send(socket, { rejected: { command_id: id, code: "gm_only", message: "only the GM" } });
      }
    }
  });
  const events = [];
  const views = [];
  const client = new FrayClient(
    { url: server.url, token: "t", WebSocket },
    { event: (e) => events.push(e.seq), view: (v, seq) => views.push([v.phase, seq]) },
  );
  try {
    const w = await client.connect();
    assert.equal(w.session, "s-1");
    await wait("the view", () => client.view && client.legalActions.length === 1);
    assert.equal(server.sockets[0].protocol, "fray.v1.json");
    assert.deepEqual(server.seen[0].msg, { hello: { protocol: 1, token: "t", resume_from: null } });
    assert.deepEqual(server.seen[1].msg, { watch: { views: true, legal_actions: true } });
    const accepted = await client.send(client.legalActions[0].command);
    assert.deepEqual(accepted, { command_id: 1, first_seq: 3, last_seq: 3 });
    assert.deepEqual(events, [3], "the events came before the answer");
    assert.equal(client.view.phase, "running");
    assert.equal(client.view.combatants[0].hp, 4);
    assert.equal(client.viewSeq, 3);
    assert.deepEqual(client.legalActions, []);
    assert.deepEqual(views, [["setup", 2], ["running", 3]]);
    await assert.rejects(client.send({ flee: {} }), (e) => e instanceof CommandRejected && e.code === "gm_only" && e.message === "only the GM" && e.commandId === 2);
  } finally {
    client.close();
    await server.close();
  }
});

test("preview asks what a command would cover and resolves or rejects by its id", async () => {
  const area = { area_attack: { actor: "kael", attack: "snare", origin: { x: 3, y: 3 }, targets: [], forced: [], origin_height: null, weapon: null, secondary_target: null } };
  const server = await fake((socket, msg) => {
    if (msg.hello) send(socket, welcome(9));
    else if (msg.preview) {
      const { id, command } = msg.preview;
      if (command.area_attack.origin.x === 3) {
        send(socket, { preview_result: { id, seq: 9, preview: { squares: [{ x: 3, y: 3 }], path: [], targets: ["brute-2"] } } });
      } else {
        send(socket, { preview_refused: { id, code: "no_line_of_effect", message: "Snare: no line of effect to the origin square" } });
      }
    }
  });
  const client = new FrayClient({ url: server.url, token: "t", WebSocket, watch: { views: false, legal_actions: false } });
  try {
    await client.connect();
    const behind = { area_attack: { ...area.area_attack, origin: { x: 6, y: 3 } } };
    // Both asked at once: each answer goes to its own question.
    const [ok, refused] = await Promise.allSettled([client.preview(area), client.preview(behind)]);
    assert.equal(ok.status, "fulfilled");
    assert.deepEqual(ok.value.preview.squares, [{ x: 3, y: 3 }]);
    assert.deepEqual(ok.value.preview.targets, ["brute-2"]);
    assert.equal(ok.value.seq, 9);
    assert.equal(refused.status, "rejected");
    assert.ok(refused.reason instanceof CommandRejected);
    assert.ok(refused.reason instanceof PreviewRefused);
    assert.equal(refused.reason.name, "PreviewRefused");
    assert.equal(refused.reason.code, "no_line_of_effect");
    const asked = server.seen.filter((s) => s.msg.preview).map((s) => s.msg.preview);
    assert.deepEqual(asked.map((p) => p.command), [area, behind]);
    assert.notEqual(asked[0].id, asked[1].id);
    assert.equal(server.seen.filter((s) => s.msg.command).length, 0, "nothing was sent as a command");
  } finally {
    client.close();
    await server.close();
  }
});

test("a patch from another view than the client's asks for a fresh snapshot", async () => {
  let watches = 0;
  const server = await fake((socket, msg) => {
    if (msg.hello) send(socket, welcome(5));
    if (msg.watch) {
      watches += 1;
      if (watches === 1) {
        send(socket, { snapshot: { seq: 5, state: { round: 1 } } });
        // A patch that starts from seq 6: the client has seq 5's view, so it must not apply it.
        send(socket, { view_patch: { from_seq: 6, seq: 7, patch: [{ op: "replace", path: "/round", value: 9 }] } });
      } else {
        send(socket, { snapshot: { seq: 7, state: { round: 2 } } });
      }
    }
  });
  const client = new FrayClient({ url: server.url, token: "t", WebSocket });
  try {
    await client.connect();
    await wait("the second snapshot", () => client.viewSeq === 7);
    assert.equal(watches, 2);
    assert.deepEqual(client.view, { round: 2 });
  } finally {
    client.close();
    await server.close();
  }
});

test("a lost connection is resumed after the last event seen, with backoff; a waiting command is failed", async () => {
  const server = await fake((socket, msg, conn) => {
    if (msg.hello) {
      send(socket, welcome(conn.number === 1 ? 1 : 2));
      if (conn.number === 1) send(socket, { event: { seq: 1, tick: 1, event: "battle_started" } });
      else send(socket, { event: { seq: 2, tick: 2, event: { round_started: { round: 1 } } } });
    }
    if (msg.watch) send(socket, { snapshot: { seq: conn.number, state: {} } });
    // The first connection drops while a command waits for its answer.
    if (msg.command && conn.number === 1) socket.terminate();
  });
  const statuses = [];
  const client = new FrayClient(
    { url: server.url, token: "t", WebSocket, history: true, minDelayMs: 20 },
    { status: (s) => statuses.push(s) },
  );
  try {
    await client.connect();
    await wait("the first event", () => client.lastSeq === 1);
    await assert.rejects(client.send("end_battle"), (e) => e instanceof CommandRejected && e.code === "disconnected");
    await wait("the resumed event", () => client.lastSeq === 2);
    const hellos = server.seen.filter((s) => s.msg.hello).map((s) => s.msg.hello.resume_from);
    assert.deepEqual(hellos, [0, 1], "history from the start, then resumed after seq 1");
    assert.ok(statuses.includes("reconnecting"), statuses.join(","));
    assert.equal(client.status, "open");
  } finally {
    client.close();
    await server.close();
  }
});

test("an unknown token fails connect() and is not retried", async () => {
  const server = await fake((socket, msg) => {
    if (msg.hello) send(socket, { error: { code: "unknown_token", message: "no such seat" } });
  });
  const client = new FrayClient({ url: server.url, token: "nope", WebSocket, minDelayMs: 10 });
  try {
    await assert.rejects(client.connect(), /unknown_token: no such seat/);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(server.seen.filter((s) => s.msg.hello).length, 1);
    assert.equal(client.status, "closed");
  } finally {
    client.close();
    await server.close();
  }
});

test("against the real fray-server: the view from patches equals a fresh snapshot", async (t) => {
  const bin = process.env.FRAY_SERVER_BIN;
  if (!bin) {
    t.skip("set FRAY_SERVER_BIN to a fray-server binary to run this test");
    return;
  }
  const data = mkdtempSync(join(tmpdir(), "fray-sdk-"));
  const key = "sdk-test-operator-key";
  const server = spawn(bin, ["--listen", "127.0.0.1:0", "--data-dir", data], {
    env: { ...process.env, FRAY_ADMIN_TOKEN: key },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  server.stderr.on("data", (d) => (log += String(d)));
  const clients = [];
  try {
    const addr = await new Promise((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (d) => {
        out += String(d);
        const m = /fray-server listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      server.once("exit", (code) => reject(new Error(`fray-server exited (${code}): ${out}${log}`)));
    });
    const encounters = await (await fetch(`http://${addr}/encounters`)).json();
    const goblins = encounters.find((e) => e.name === "goblin-ambush");
    const r = await fetch(`http://${addr}/sessions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ encounter: goblins.toml, seed: 3, name: "goblin-ambush.toml" }),
    });
    assert.equal(r.status, 201);
    const created = await r.json();
    const url = `ws://${addr}/ws`;
    const gm = new FrayClient({ url, token: created.tokens.gm, WebSocket, history: true });
    const spectator = new FrayClient({ url, token: created.tokens.spectator, WebSocket });
    clients.push(gm, spectator);
    await gm.connect();
    await spectator.connect();
    await wait("the GM's legal actions", () => gm.legalActions.some((a) => a.group === "Start battle"));
    await gm.send(gm.legalActions.find((a) => a.group === "Start battle").command);
    // A dozen commands from the legal actions: a combatant's first, then its turn's end.
    // (An answer arrives after its legal actions: they are current when send() resolves.)
    for (let i = 0; i < 12; i++) {
      const acts = gm.legalActions.filter((a) => a.actor !== null);
      const pick = i % 2 ? acts.find((a) => a.group === "End turn") : acts.find((a) => a.group !== "Delay");
      assert.ok(pick, JSON.stringify(gm.legalActions));
      await gm.send(pick.command);
    }
    await wait("the spectator's view", () => spectator.viewSeq === gm.lastSeq && gm.viewSeq === gm.lastSeq);
    const patchedGm = structuredClone(gm.view);
    const patchedPublic = structuredClone(spectator.view);
    gm.resync();
    spectator.resync();
    const at = gm.lastSeq;
    await wait("fresh snapshots", () => gm.viewSeq === at && spectator.viewSeq === at);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(gm.view, patchedGm);
    assert.deepEqual(spectator.view, patchedPublic);
    assert.ok(patchedPublic.combatants.filter((c) => c.side === "monsters").every((c) => c.hp === null));
    assert.equal(patchedGm.phase, "running");
  } finally {
    for (const c of clients) c.close();
    server.kill();
    rmSync(data, { recursive: true, force: true });
  }
});
