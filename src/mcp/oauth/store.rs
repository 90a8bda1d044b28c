//! Tokens kept between runs: one file per server URL under `$XDG_STATE_HOME/mcp-inspect/auth/`
//! (`~/.local/state` when unset), mode 0600, written whole or not at all. The file holds rmcp's
//! stored credentials (client id, token response, granted scopes, issuer) beside the URL they
//! are for. Every secret read from it is registered at once, so no output ever shows it.

use crate::private_files::{self, key};
use rmcp::transport::auth::{AuthError, CredentialStore, OAuthTokenResponse, StoredCredentials};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// A stored file: the URL it is for and rmcp's credentials.
#[derive(Serialize, Deserialize)]
struct Entry {
    url: String,
    credentials: StoredCredentials,
}

/// The directory of stored tokens, when a state directory is known.
pub fn dir() -> Option<PathBuf> {
    private_files::base_dir("XDG_STATE_HOME", ".local/state", "auth")
}

/// The credentials of one server URL in a file.
#[derive(Clone)]
pub struct FileStore {
    url: String,
    path: PathBuf,
    /// What the file held when it was last read or written, and its modification time then:
    /// rmcp loads the credentials before every request, and the file is read again only
    /// when it changed (another mcp-inspect may have refreshed the token).
    read: Arc<Mutex<Option<LastRead>>>,
}

/// The file's modification time and what it held then.
type LastRead = (SystemTime, Option<StoredCredentials>);

impl FileStore {
    pub fn for_url(url: &str) -> Option<FileStore> {
        let url = canonical(url);
        Some(FileStore {
            path: dir()?.join(format!("{}.json", key(&url))),
            url,
            read: Arc::default(),
        })
    }

    fn modified(&self) -> Option<SystemTime> {
        std::fs::metadata(&self.path)
            .and_then(|m| m.modified())
            .ok()
    }

    fn remember(&self, at: Option<SystemTime>, credentials: Option<StoredCredentials>) {
        if let Ok(mut read) = self.read.lock() {
            *read = at.map(|at| (at, credentials));
        }
    }
}

/// The server URL tokens are kept under: without a user name, password or fragment (a
/// password never reaches the file or `auth list`).
fn canonical(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut parsed) => {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
            parsed.set_fragment(None);
            parsed.to_string()
        }
        Err(_) => url.to_string(),
    }
}

/// A token file is a few KiB; one larger is not ours.
const MAX_STORE_BYTES: u64 = 1 << 20;

fn read(path: &std::path::Path) -> Option<Entry> {
    let text = crate::private_files::read_private(path, MAX_STORE_BYTES).ok()?;
    let entry: Entry = serde_json::from_str(&text).ok()?;
    register(&entry.credentials);
    // A token no HTTP header can carry would fail every request of every later run: such a
    // file is as good as none (a new authorization replaces it).
    sendable(&entry.credentials).then_some(entry)
}

/// Whether every token can travel in an HTTP header: visible ASCII only (RFC 6750's b64token
/// is narrower still).
fn sendable(credentials: &StoredCredentials) -> bool {
    use oauth2::TokenResponse;
    let visible = |t: &str| t.bytes().all(|b| b.is_ascii_graphic());
    credentials.token_response.as_ref().is_none_or(|tokens| {
        visible(tokens.access_token().secret())
            && tokens.refresh_token().is_none_or(|r| visible(r.secret()))
    })
}

/// Registers the token values as secrets (never shown, logged, copied or recorded).
fn register(credentials: &StoredCredentials) {
    if let Some(tokens) = &credentials.token_response {
        register_tokens(tokens);
    }
}

/// Registers a token response's access and refresh tokens as secrets.
pub fn register_tokens(tokens: &OAuthTokenResponse) {
    use oauth2::TokenResponse;
    crate::secrets::register(tokens.access_token().secret());
    if let Some(refresh) = tokens.refresh_token() {
        crate::secrets::register(refresh.secret());
    }
}

fn store_error(e: impl std::fmt::Display) -> AuthError {
    AuthError::CredentialStoreError(e.to_string())
}

#[async_trait::async_trait]
impl CredentialStore for FileStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let at = self.modified();
        if let Ok(read) = self.read.lock()
            && let Some((when, credentials)) = read.as_ref()
            && Some(*when) == at
        {
            return Ok(credentials.clone());
        }
        // A file for another URL (a hash collision) is not this server's.
        let credentials = read(&self.path)
            .filter(|e| e.url == self.url)
            .map(|e| e.credentials);
        self.remember(at, credentials.clone());
        Ok(credentials)
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        register(&credentials);
        if !sendable(&credentials) {
            return Err(store_error(
                "the authorization server gave a token with characters no HTTP header can carry: not kept",
            ));
        }
        let entry = Entry {
            url: self.url.clone(),
            credentials,
        };
        let text = serde_json::to_string_pretty(&entry).map_err(store_error)?;
        private_files::write(&self.path, &text).map_err(store_error)?;
        self.remember(self.modified(), Some(entry.credentials));
        Ok(())
    }

    async fn clear(&self) -> Result<(), AuthError> {
        self.remember(None, None);
        remove(&self.path).map(|_| ()).map_err(store_error)
    }
}

/// What `auth list` shows of one stored server: never a token.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stored {
    pub url: String,
    pub client_id: String,
    pub issuer: Option<String>,
    pub scopes: Vec<String>,
    /// Seconds since the epoch when the access token expires, when the server said.
    pub expires_at: Option<u64>,
    pub refreshable: bool,
}

/// Every stored server, sorted by URL.
pub fn list() -> Vec<Stored> {
    let Some(dir) = dir() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut stored: Vec<Stored> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| read(&e.path()))
        .map(|entry| {
            use oauth2::TokenResponse;
            let c = entry.credentials;
            let tokens = c.token_response.as_ref();
            Stored {
                url: entry.url,
                client_id: c.client_id,
                issuer: c.issuer,
                scopes: c.granted_scopes,
                expires_at: tokens
                    .and_then(|t| t.expires_in())
                    .zip(c.token_received_at)
                    .map(|(lasts, at)| at + lasts.as_secs()),
                refreshable: tokens.is_some_and(|t| t.refresh_token().is_some()),
            }
        })
        .collect();
    stored.sort_by(|a, b| a.url.cmp(&b.url));
    stored
}

/// Forgets the tokens of `url`; whether there were any.
pub fn logout(url: &str) -> Result<bool, String> {
    let Some(store) = FileStore::for_url(url) else {
        return Ok(false);
    };
    remove(&store.path).map_err(|e| format!("cannot remove {}: {e}", store.path.display()))
}

/// Removes a token file; whether there was one.
fn remove(path: &PathBuf) -> std::io::Result<bool> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_url_has_no_password_and_logout_finds_it_as_given() {
        assert_eq!(
            canonical("https://me:s3cret-pass@mcp.example/mcp#x"),
            "https://mcp.example/mcp"
        );
        assert_eq!(
            canonical("http://127.0.0.1:8/mcp"),
            "http://127.0.0.1:8/mcp"
        );
        assert_eq!(canonical("not a url"), "not a url");
    }

    #[tokio::test]
    async fn the_file_is_read_again_only_when_it_changed() {
        let dir = std::env::temp_dir().join(format!("mcp-inspect-store-{}", std::process::id()));
        let store = FileStore {
            url: "http://127.0.0.1:9/mcp".into(),
            path: dir.join("t.json"),
            read: Arc::default(),
        };
        let kept = StoredCredentials::new("client-one".into(), None, vec![], None);
        store.save(kept).await.expect("saved");
        let loaded = store.load().await.expect("loaded").expect("some");
        assert_eq!(loaded.client_id, "client-one");
        // Another process writes the file: seen at the next load (its time changed).
        let other = Entry {
            url: store.url.clone(),
            credentials: StoredCredentials::new("client-two".into(), None, vec![], None),
        };
        std::fs::write(&store.path, serde_json::to_string(&other).expect("json")).expect("write");
        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&store.path)
            .and_then(|f| f.set_modified(later))
            .expect("touch");
        let loaded = store.load().await.expect("loaded").expect("some");
        assert_eq!(loaded.client_id, "client-two");
        store.clear().await.expect("cleared");
        assert!(store.load().await.expect("loaded").is_none());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test]
    async fn a_token_no_header_can_carry_is_never_kept_nor_used() {
        let dir = std::env::temp_dir().join(format!("mcp-inspect-store-cc-{}", std::process::id()));
        let store = FileStore {
            url: "http://127.0.0.1:9/mcp".into(),
            path: dir.join("t.json"),
            read: Arc::default(),
        };
        let tokens: OAuthTokenResponse = serde_json::from_value(serde_json::json!({
            "access_token": "tok-\u{1b}[2J-\nen", "token_type": "bearer"
        }))
        .expect("tokens");
        let broken = StoredCredentials::new("c".into(), Some(tokens), vec![], None);
        assert!(store.save(broken.clone()).await.is_err());
        // Written by an older version or by hand: read as no token at all.
        let entry = Entry {
            url: store.url.clone(),
            credentials: broken,
        };
        private_files::write(&store.path, &serde_json::to_string(&entry).expect("json"))
            .expect("write");
        assert!(store.load().await.expect("loaded").is_none());
        let _ = std::fs::remove_dir_all(dir);
    }
}
