// A small client for a Fray session over its WebSocket (`fray.v1.json`): it says hello, resumes
// after a lost connection with backoff, sends commands and resolves each with its `accepted` or
// rejects it with its `rejected`, and keeps the seat's view (the server's `snapshot` and
// `view_patch`es) and legal actions; it asks what a command would cover (`preview`). It never folds events: they are passed on as the
// narrative. Its types are the protocol's, generated from the Rust ones (`./protocol.ts`, type
// declarations only). No run-time dependencies; copy this file and protocol.ts into your own
// project if you like (see protocol/README.md).
//
// Works in browsers and in Node 22+ (global WebSocket); in Node 20 pass a constructor, e.g. the
// `ws` package's: `new FrayClient({ url, token, WebSocket: WebSocketFromWs })`.
/** A refused command (`rejected`), or one whose fate is unknown (`code` "disconnected"). */
export class CommandRejected extends Error {
    code;
    commandId;
    constructor(code, message, commandId) {
        super(message);
        this.code = code;
        this.commandId = commandId;
        this.name = "CommandRejected";
    }
}
/** A refused `preview` (`preview_refused`, or the connection lost before its answer): a
 * `CommandRejected` whose `commandId` is the preview's id, so one handler can take both. */
export class PreviewRefused extends CommandRejected {
    constructor(code, message, previewId) {
        super(code, message, previewId);
        this.name = "PreviewRefused";
    }
}
/** Errors after which reconnecting cannot help. */
const FATAL = new Set(["unknown_token", "unsupported_protocol"]);
/** The JSON subprotocol. */
export const SUBPROTOCOL = "fray.v1.json";
export class FrayClient {
    on;
    /** The welcome of the current (or last) connection. */
    welcome = null;
    /** The seat's view, as of `viewSeq`. */
    view = null;
    viewSeq = -1;
    /** The seat's legal actions, as of `actionsSeq`. */
    legalActions = [];
    actionsSeq = -1;
    /** The last event's `seq` (the resume point). */
    lastSeq = null;
    status = "closed";
    socket = null;
    nextId = 1;
    pending = new Map();
    previews = new Map();
    closedByUser = false;
    attempts = 0;
    timer = null;
    opts;
    firstWelcome = null;
    constructor(options, on = {}) {
        this.on = on;
        const ctor = options.WebSocket ??
            globalThis.WebSocket;
        if (!ctor) {
            throw new Error("no WebSocket here: pass one in options.WebSocket (e.g. the ws package)");
        }
        this.opts = {
            url: options.url,
            token: options.token,
            watch: options.watch ?? { views: true, legal_actions: true },
            history: options.history ?? false,
            reconnect: options.reconnect ?? true,
            minDelayMs: options.minDelayMs ?? 250,
            maxDelayMs: options.maxDelayMs ?? 8000,
            WebSocket: ctor,
        };
        if (this.opts.history)
            this.lastSeq = 0;
    }
    /** Connects; resolves with the first welcome, rejects when the server refuses the token or
     * the first connection fails. Later connections are made by itself. */
    connect() {
        this.closedByUser = false;
        return new Promise((resolve, reject) => {
            this.firstWelcome = { resolve, reject };
            this.open();
        });
    }
    /** Closes for good; commands waiting for an answer are rejected. */
    close() {
        this.closedByUser = true;
        if (this.timer)
            clearTimeout(this.timer);
        this.timer = null;
        this.socket?.close(1000, "bye");
        this.socket = null;
        this.failPending("closed", "the client was closed");
        this.setStatus("closed", "closed");
    }
    /** Sends a command; resolves when it is accepted (its events have arrived before), rejects
     * with a `CommandRejected` carrying the server's code and reason. */
    send(command) {
        const id = this.nextId++;
        const socket = this.socket;
        if (!socket || this.status !== "open") {
            return Promise.reject(new CommandRejected("disconnected", "not connected: the command was not sent", id));
        }
        return new Promise((resolve, reject) => {
            this.pending.set(id, { resolve, reject });
            this.write(socket, { command: { id, command } });
        });
    }
    /** Asks what a command would cover — its area's squares, its path, the creatures it would
     * affect — without sending it (`preview`): resolves with the `preview_result`, rejects with a
     * `PreviewRefused` (a `CommandRejected`) carrying the `preview_refused` code (or
     * "disconnected"/"closed"; its `commandId` is the preview's id). Nothing is decided, drawn
     * or logged. */
    preview(command) {
        const id = this.nextId++;
        const socket = this.socket;
        if (!socket || this.status !== "open") {
            return Promise.reject(new CommandRejected("disconnected", "not connected: nothing was asked", id));
        }
        return new Promise((resolve, reject) => {
            this.previews.set(id, { resolve, reject });
            this.write(socket, { preview: { id, command } });
        });
    }
    /** Asks for the legal actions once (they also come by themselves while watching). */
    askLegalActions() {
        this.raw("get_legal_actions");
    }
    /** Asks for a fresh view (a `snapshot`). */
    resync() {
        this.raw({ watch: this.opts.watch });
    }
    raw(message) {
        if (this.socket && this.status === "open")
            this.write(this.socket, message);
    }
    write(socket, message) {
        socket.send(JSON.stringify(message));
    }
    setStatus(s, detail) {
        this.status = s;
        this.on.status?.(s, detail);
    }
    open() {
        this.setStatus(this.attempts === 0 ? "connecting" : "reconnecting", this.opts.url);
        let socket;
        try {
            socket = new this.opts.WebSocket(this.opts.url, SUBPROTOCOL);
        }
        catch (e) {
            this.lost(`cannot connect: ${String(e)}`);
            return;
        }
        this.socket = socket;
        socket.onopen = () => {
            this.write(socket, {
                hello: { protocol: 1, token: this.opts.token, resume_from: this.lastSeq },
            });
        };
        socket.onmessage = (ev) => {
            if (typeof ev.data !== "string")
                return;
            let msg;
            try {
                msg = JSON.parse(ev.data);
            }
            catch {
                return;
            }
            this.receive(socket, msg);
        };
        socket.onclose = (ev) => {
            if (this.socket !== socket)
                return;
            this.socket = null;
            this.lost(`connection closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ""})`);
        };
        socket.onerror = () => {
            // A close follows; it decides what happens next.
        };
    }
    lost(why) {
        this.failPending("disconnected", `${why}; whether the command was applied shows in the events`);
        if (this.closedByUser)
            return;
        if (this.firstWelcome && this.attempts === 0 && !this.opts.reconnect) {
            this.firstWelcome.reject(new Error(why));
            this.firstWelcome = null;
        }
        if (!this.opts.reconnect) {
            this.setStatus("closed", why);
            return;
        }
        const delay = Math.min(this.opts.maxDelayMs, this.opts.minDelayMs * 2 ** this.attempts);
        this.attempts += 1;
        this.setStatus("reconnecting", `${why}; retrying in ${Math.round(delay / 100) / 10} s`);
        this.timer = setTimeout(() => {
            this.timer = null;
            if (!this.closedByUser)
                this.open();
        }, delay);
    }
    failPending(code, message) {
        for (const [id, p] of this.pending)
            p.reject(new CommandRejected(code, message, id));
        this.pending.clear();
        for (const [id, p] of this.previews)
            p.reject(new PreviewRefused(code, message, id));
        this.previews.clear();
    }
    receive(socket, data) {
        // A frame is trusted to be a `ServerMessage` once it is an object (the server writes
        // them); a kind this client does not know is ignored.
        if (typeof data !== "object" || data === null || Array.isArray(data))
            return;
        const msg = data;
        if ("welcome" in msg) {
            const w = msg.welcome;
            this.welcome = w;
            this.attempts = 0;
            this.setStatus("open", w.session);
            if (this.opts.watch.views || this.opts.watch.legal_actions) {
                this.write(socket, { watch: this.opts.watch });
            }
            this.on.welcome?.(w);
            this.firstWelcome?.resolve(w);
            this.firstWelcome = null;
        }
        else if ("event" in msg) {
            const e = msg.event;
            if (this.lastSeq !== null && e.seq <= this.lastSeq)
                return;
            this.lastSeq = e.seq;
            this.on.event?.(e);
        }
        else if ("snapshot" in msg) {
            const { seq, state } = msg.snapshot;
            this.view = state;
            this.viewSeq = seq;
            // A view is at least as new as the events folded into it; joining without history, the
            // resume point is the snapshot's.
            if (this.lastSeq === null)
                this.lastSeq = seq;
            this.on.view?.(state, seq);
        }
        else if ("view_patch" in msg) {
            const { from_seq, seq, patch } = msg.view_patch;
            if (this.view === null || from_seq !== this.viewSeq) {
                this.resync();
                return;
            }
            try {
                this.view = applyPatch(this.view, patch);
            }
            catch {
                this.resync();
                return;
            }
            this.viewSeq = seq;
            this.on.view?.(this.view, seq);
        }
        else if ("legal_actions" in msg) {
            this.legalActions = msg.legal_actions.actions;
            this.actionsSeq = msg.legal_actions.seq;
            this.on.legalActions?.(this.legalActions, this.actionsSeq);
        }
        else if ("accepted" in msg) {
            const a = msg.accepted;
            this.pending.get(a.command_id)?.resolve(a);
            this.pending.delete(a.command_id);
        }
        else if ("rejected" in msg) {
            const { command_id, code, message } = msg.rejected;
            this.pending.get(command_id)?.reject(new CommandRejected(code, message, command_id));
            this.pending.delete(command_id);
        }
        else if ("preview_result" in msg) {
            const r = msg.preview_result;
            this.previews.get(r.id)?.resolve(r);
            this.previews.delete(r.id);
        }
        else if ("preview_refused" in msg) {
            const { id, code, message } = msg.preview_refused;
            this.previews.get(id)?.reject(new PreviewRefused(code, message, id));
            this.previews.delete(id);
        }
        else if ("error" in msg) {
            const { code, message } = msg.error;
            this.on.error?.(code, message);
            if (code === "resume_out_of_range")
                this.lastSeq = null;
            if (FATAL.has(code)) {
                this.firstWelcome?.reject(new Error(`${code}: ${message}`));
                this.firstWelcome = null;
                this.close();
            }
        }
    }
}
/** Applies an RFC 6902 patch (add, remove, replace, and also move, copy, test) to a copy of
 * `doc`, a JSON document (a `View`, say); throws when an operation does not apply. The input is
 * never modified. The result is typed as the input: the patch is trusted to keep its shape, as
 * the server's view patches do. */
export function applyPatch(doc, patch) {
    let root = structuredClone(doc);
    for (const op of patch)
        root = applyOp(root, op);
    return root;
}
/** A patch operation's value as JSON (the patch came from JSON). */
function valueOf(op) {
    return structuredClone((op.value ?? null));
}
function pointer(path) {
    if (path === "")
        return [];
    if (!path.startsWith("/"))
        throw new Error(`bad JSON pointer ${path}`);
    return path
        .slice(1)
        .split("/")
        .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}
function get(root, tokens) {
    let node = root;
    for (const t of tokens) {
        if (Array.isArray(node)) {
            const v = node[index(t, node.length - 1)];
            if (v === undefined)
                throw new Error(`no element ${t}`);
            node = v;
        }
        else if (node !== null && typeof node === "object" && Object.hasOwn(node, t)) {
            node = node[t];
        }
        else {
            throw new Error(`no member ${t}`);
        }
    }
    return node;
}
function index(token, max) {
    if (!/^(0|[1-9][0-9]*)$/.test(token))
        throw new Error(`bad array index ${token}`);
    const i = Number(token);
    if (i > max)
        throw new Error(`array index ${i} out of range`);
    return i;
}
function applyOp(root, op) {
    const tokens = pointer(op.path);
    switch (op.op) {
        case "add":
        case "replace":
        case "remove": {
            if (tokens.length === 0) {
                if (op.op === "remove")
                    throw new Error("cannot remove the whole document");
                return valueOf(op);
            }
            const last = tokens[tokens.length - 1];
            const parent = get(root, tokens.slice(0, -1));
            if (Array.isArray(parent)) {
                if (op.op === "add") {
                    const i = last === "-" ? parent.length : index(last, parent.length);
                    parent.splice(i, 0, valueOf(op));
                }
                else {
                    const i = index(last, parent.length - 1);
                    if (op.op === "remove")
                        parent.splice(i, 1);
                    else
                        parent[i] = valueOf(op);
                }
            }
            else if (parent !== null && typeof parent === "object") {
                if (op.op !== "add" && !Object.hasOwn(parent, last))
                    throw new Error(`no member ${last}`);
                if (op.op === "remove")
                    delete parent[last];
                else
                    parent[last] = valueOf(op);
            }
            else {
                throw new Error(`${op.path}: the parent is not a container`);
            }
            return root;
        }
        case "move":
        case "copy": {
            const value = structuredClone(get(root, pointer(op.from)));
            if (op.op === "move")
                root = applyOp(root, { op: "remove", path: op.from });
            return applyOp(root, { op: "add", path: op.path, value });
        }
        case "test": {
            if (JSON.stringify(get(root, tokens)) !== JSON.stringify(op.value)) {
                throw new Error(`test failed at ${op.path}`);
            }
            return root;
        }
        default: {
            // A frame from elsewhere may carry any `op`: refuse it rather than guess.
            const unknownOp = op;
            throw new Error(`unknown patch operation ${String(unknownOp.op)}`);
        }
    }
}
