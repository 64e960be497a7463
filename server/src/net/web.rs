//! The browser client: the page at `/` and its assets, embedded in the binary (no Node, no files
//! needed at run time), and `GET /encounters`, the built-in encounters the lobby offers.
//!
//! The page's sources are TypeScript in `server/web/src/` and `sdk/src/client.ts`; the built
//! JavaScript in `server/web/dist/` is committed (`npm run build` in `sdk/` rebuilds it, and CI
//! fails when the committed files differ from a fresh build).

use axum::Router;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use std::sync::LazyLock;

/// One embedded file: its URL path, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// Every file the page loads. `/` is `index.html`; the modules import each other by these
/// names (`./client.js`), so the page works from any origin the server answers on.
const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: HTML,
        body: include_str!("../../web/index.html"),
    },
    Asset {
        path: "/app.css",
        content_type: CSS,
        body: include_str!("../../web/app.css"),
    },
    Asset {
        path: "/app.js",
        content_type: JS,
        body: include_str!("../../web/dist/app.js"),
    },
    Asset {
        path: "/lobby.js",
        content_type: JS,
        body: include_str!("../../web/dist/lobby.js"),
    },
    Asset {
        path: "/table.js",
        content_type: JS,
        body: include_str!("../../web/dist/table.js"),
    },
    Asset {
        path: "/narrate.js",
        content_type: JS,
        body: include_str!("../../web/dist/narrate.js"),
    },
    Asset {
        path: "/dom.js",
        content_type: JS,
        body: include_str!("../../web/dist/dom.js"),
    },
    Asset {
        path: "/client.js",
        content_type: JS,
        body: include_str!("../../web/dist/client.js"),
    },
];

/// The page may load only its own scripts and styles and talk only to its own server.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'";

fn serve(asset: &'static Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, asset.content_type),
            // The assets change with the binary: revalidate rather than keep a stale page.
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CONTENT_SECURITY_POLICY, CSP),
        ],
        asset.body,
    )
        .into_response()
}

/// A built-in encounter as the lobby lists it.
#[derive(Debug, Clone, Serialize)]
pub struct EncounterEntry {
    /// The file's name (`goblin-ambush`), as `fray new` takes it.
    pub name: &'static str,
    /// The ruleset id.
    pub ruleset: &'static str,
    /// The encounter's title, or the name when it does not load (it always should).
    pub title: String,
    /// The TOML text, to send back in `POST /sessions`.
    pub toml: &'static str,
}

/// Every built-in encounter of every ruleset, in the registry's order (loaded once, for titles).
pub fn encounters() -> &'static [EncounterEntry] {
    static LIST: LazyLock<Vec<EncounterEntry>> = LazyLock::new(|| {
        crate::rules::ids()
            .into_iter()
            .flat_map(|ruleset| {
                crate::rules::builtin_encounters(ruleset)
                    .iter()
                    .map(move |&(name, toml)| EncounterEntry {
                        name,
                        ruleset,
                        title: crate::rules::load_encounter(name, toml)
                            .map_or_else(|_| name.to_string(), |e| e.title),
                        toml,
                    })
            })
            .collect()
    });
    &LIST
}

async fn list_encounters() -> Response {
    axum::Json(encounters()).into_response()
}

/// The page's routes: its assets and `GET /encounters`.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new().route("/encounters", get(list_encounters));
    for asset in ASSETS {
        router = router.route(asset.path, get(move || async move { serve(asset) }));
    }
    router
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_is_non_empty_and_the_page_loads_its_modules() {
        for a in ASSETS {
            assert!(!a.body.trim().is_empty(), "{} is empty", a.path);
        }
        let index = ASSETS.iter().find(|a| a.path == "/").map(|a| a.body);
        let index = index.unwrap_or_default();
        assert!(index.contains("/app.js"), "index.html loads /app.js");
        assert!(index.contains("/app.css"), "index.html loads /app.css");
        // Every module a built file imports is served.
        for a in ASSETS.iter().filter(|a| a.content_type == JS) {
            for line in a.body.lines() {
                if let Some(rest) = line.split(" from \"./").nth(1)
                    && let Some(name) = rest.split('"').next()
                {
                    let path = format!("/{name}");
                    assert!(
                        ASSETS.iter().any(|b| b.path == path),
                        "{} imports {path}, which is not served",
                        a.path
                    );
                }
            }
        }
    }

    #[test]
    fn the_encounters_list_every_builtin_encounter_with_its_title() {
        let list = encounters();
        assert!(list.iter().any(|e| e.name == "goblin-ambush"
            && e.ruleset == "13th-age"
            && e.title != e.name
            && e.toml.contains("ruleset")));
        for ruleset in crate::rules::ids() {
            assert!(
                list.iter().any(|e| e.ruleset == ruleset),
                "no encounter of {ruleset}"
            );
        }
    }
}
