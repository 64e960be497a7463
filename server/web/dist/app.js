// The page's entry: `#/` is the lobby, `#/table?token=…` a seat's table, `#/replay` the replay
// viewer (`#/replay?ruleset=…&fight=…` opens one of the server's recorded fights). The token
// stays in the URL's fragment, which the browser never sends to a server.
import { lobby } from "./lobby.js";
import { replay } from "./replay.js";
import { table } from "./table.js";
const root = document.getElementById("app");
let leave = null;
function route() {
    if (!root)
        return;
    leave?.();
    leave = null;
    const hash = location.hash.replace(/^#/, "");
    const [path, query] = hash.split("?", 2);
    const params = new URLSearchParams(query ?? "");
    const token = params.get("token");
    if (path === "/table" && token) {
        leave = table(root, token, params.get("title"));
    }
    else if (path === "/replay") {
        leave = replay(root, params);
    }
    else {
        document.title = "Fray";
        lobby(root);
    }
}
window.addEventListener("hashchange", route);
route();
