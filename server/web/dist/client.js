// A small client for a Fray session over its WebSocket (`fray.v1.json`): it says hello, resumes
// after a lost connection with backoff, sends commands and resolves each with its `accepted` or
// rejects it with its `rejected`, and keeps the seat's view (the server's `snapshot` and
// `view_patch`es) and legal actions. It never folds events: they are passed on as the
// narrative. No dependencies; copy it into your own project if you like (see protocol/README.md).
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
            socket.send(JSON.stringify({ command: { id, command } }));
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
            this.socket.send(JSON.stringify(message));
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
            socket.send(JSON.stringify({
                hello: { protocol: 1, token: this.opts.token, resume_from: this.lastSeq },
            }));
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
    }
    receive(socket, msg) {
        if (typeof msg !== "object" || msg === null)
            return;
        const [kind, body] = Object.entries(msg)[0] ?? [];
        const b = body;
        switch (kind) {
            case "welcome": {
                const w = b;
                this.welcome = w;
                this.attempts = 0;
                this.setStatus("open", w.session);
                if (this.opts.watch.views || this.opts.watch.legal_actions) {
                    socket.send(JSON.stringify({ watch: this.opts.watch }));
                }
                this.on.welcome?.(w);
                this.firstWelcome?.resolve(w);
                this.firstWelcome = null;
                break;
            }
            case "event": {
                const e = b;
                if (this.lastSeq !== null && e.seq <= this.lastSeq)
                    return;
                this.lastSeq = e.seq;
                this.on.event?.(e);
                break;
            }
            case "snapshot": {
                const seq = b["seq"];
                this.view = b["state"];
                this.viewSeq = seq;
                // A view is at least as new as the events folded into it; joining without history, the
                // resume point is the snapshot's.
                if (this.lastSeq === null)
                    this.lastSeq = seq;
                this.on.view?.(this.view, seq);
                break;
            }
            case "view_patch": {
                const from = b["from_seq"];
                const seq = b["seq"];
                if (this.view === null || from !== this.viewSeq) {
                    this.resync();
                    return;
                }
                try {
                    this.view = applyPatch(this.view, b["patch"]);
                }
                catch {
                    this.resync();
                    return;
                }
                this.viewSeq = seq;
                this.on.view?.(this.view, seq);
                break;
            }
            case "legal_actions": {
                this.legalActions = b["actions"];
                this.actionsSeq = b["seq"];
                this.on.legalActions?.(this.legalActions, this.actionsSeq);
                break;
            }
            case "accepted": {
                const a = b;
                this.pending.get(a.command_id)?.resolve(a);
                this.pending.delete(a.command_id);
                break;
            }
            case "rejected": {
                const id = b["command_id"];
                this.pending
                    .get(id)
                    ?.reject(new CommandRejected(String(b["code"]), String(b["message"]), id));
                this.pending.delete(id);
                break;
            }
            case "error": {
                const code = String(b["code"]);
                const message = String(b["message"]);
                this.on.error?.(code, message);
                if (code === "resume_out_of_range")
                    this.lastSeq = null;
                if (FATAL.has(code)) {
                    this.firstWelcome?.reject(new Error(`${code}: ${message}`));
                    this.firstWelcome = null;
                    this.close();
                }
                break;
            }
            default:
                break;
        }
    }
}
/** Applies an RFC 6902 patch (add, remove, replace, and also move, copy, test) to a copy of
 * `doc`; throws when an operation does not apply. The input is never modified. */
export function applyPatch(doc, patch) {
    let root = structuredClone(doc);
    for (const op of patch)
        root = applyOp(root, op);
    return root;
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
                return structuredClone(op.value ?? null);
            }
            const last = tokens[tokens.length - 1];
            const parent = get(root, tokens.slice(0, -1));
            if (Array.isArray(parent)) {
                if (op.op === "add") {
                    const i = last === "-" ? parent.length : index(last, parent.length);
                    parent.splice(i, 0, structuredClone(op.value ?? null));
                }
                else {
                    const i = index(last, parent.length - 1);
                    if (op.op === "remove")
                        parent.splice(i, 1);
                    else
                        parent[i] = structuredClone(op.value ?? null);
                }
            }
            else if (parent !== null && typeof parent === "object") {
                if (op.op !== "add" && !Object.hasOwn(parent, last))
                    throw new Error(`no member ${last}`);
                if (op.op === "remove")
                    delete parent[last];
                else
                    parent[last] = structuredClone(op.value ?? null);
            }
            else {
                throw new Error(`${op.path}: the parent is not a container`);
            }
            return root;
        }
        case "move":
        case "copy": {
            const value = structuredClone(get(root, pointer(op.from ?? "")));
            if (op.op === "move")
                root = applyOp(root, { op: "remove", path: op.from ?? "" });
            return applyOp(root, { op: "add", path: op.path, value });
        }
        case "test": {
            if (JSON.stringify(get(root, tokens)) !== JSON.stringify(op.value)) {
                throw new Error(`test failed at ${op.path}`);
            }
            return root;
        }
        default:
            throw new Error(`unknown patch operation ${op.op}`);
    }
}
