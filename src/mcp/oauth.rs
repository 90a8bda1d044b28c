//! OAuth 2.1 for protected HTTP servers, as the MCP authorization spec says: on a 401 the
//! challenge leads to the protected resource metadata, the authorization server's metadata,
//! a client (pre-registered, a Client ID Metadata Document, or dynamic registration), PKCE,
//! the `resource` parameter, the browser and a loopback redirect, the token. rmcp's
//! authorization manager does the protocol (it passes the conformance suite's auth
//! scenarios); this module decides when to run it, talks to the user, and keeps the tokens.
//!
//! Every token, code and secret is registered with [`crate::secrets`] the moment it is known.

mod assertion;
pub use assertion::{AssertionGrant, read_key};
mod browser;
pub mod dpop;
mod flow;

pub use browser::open as open_in_browser;
mod loopback;
pub mod store;

use crate::mcp::session::events::{AuthStep, EventSink, ServerEvent};
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, CredentialStore, WWWAuthenticateParams,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::{Mutex, mpsc};

/// How long the user has to finish in the browser.
pub const BROWSER_WAIT: Duration = Duration::from_secs(300);
/// Re-authorizations for more scope (403 `insufficient_scope`) in a row, with no request
/// succeeding between them, before the inspector stops asking: a server that wants a scope it
/// never grants would otherwise send the user to the browser forever.
const MAX_STEP_UPS: u32 = 2;

/// How to authorize, from the command line.
#[derive(Clone, Default)]
pub struct AuthOptions {
    /// A client registered with the authorization server beforehand (`--client-id`).
    pub client_id: Option<String>,
    /// Its secret (`--client-secret-env VAR`).
    pub client_secret: Option<String>,
    /// The HTTPS URL of this client's metadata document (`--client-metadata-url`), used as the
    /// client id where the authorization server supports Client ID Metadata Documents.
    pub client_metadata_url: Option<String>,
    /// Whether the user may be sent to a browser (the TUI; `--interactive-auth` headless).
    pub interactive: bool,
    /// Whether tokens are kept on disk (not with `--no-store`).
    pub store: bool,
    /// Whether the browser is started (not with `--no-browser`).
    pub open_browser: bool,
    /// The client credentials grant (`--client-credentials`), for machine-to-machine servers.
    pub client_credentials: bool,
    /// A grant that presents a JWT (`--client-key`, `--assertion-file`), no browser.
    pub assertion: Option<AssertionGrant>,
    /// Ask for DPoP-bound tokens (`--dpop`) even when the server's challenge does not name
    /// DPoP (one that does gets them anyway).
    pub dpop: bool,
    /// Redirect URLs the user pastes (the TUI's panel, or stdin headless), for when the
    /// browser cannot reach this machine's loopback (SSH).
    pub pasted: Option<Pasted>,
    /// Each wait on the authorization server (metadata, registration, a token): `--timeout`
    /// (zero: rmcp's own 30 s per request only).
    pub timeout: Duration,
}

impl std::fmt::Debug for AuthOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthOptions")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("interactive", &self.interactive)
            .finish_non_exhaustive()
    }
}

/// A queue of redirect URLs pasted by the user.
#[derive(Clone)]
pub struct Pasted {
    sender: mpsc::UnboundedSender<String>,
    receiver: Arc<Mutex<mpsc::UnboundedReceiver<String>>>,
}

impl Default for Pasted {
    fn default() -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        Pasted {
            sender,
            receiver: Arc::new(Mutex::new(receiver)),
        }
    }
}

impl Pasted {
    pub fn paste(&self, url: String) {
        let _ = self.sender.send(url);
    }

    async fn next(&self) -> String {
        match self.receiver.lock().await.recv().await {
            Some(url) => url,
            None => std::future::pending().await,
        }
    }
}

/// Why a request could not be authorized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthFailure {
    /// Authorizing needs the user, and this command may not ask (headless without
    /// `--interactive-auth`).
    NeedsUser,
    /// The server publishes no OAuth metadata: it wants a token given some other way.
    NoOAuth,
    /// The flow ran and failed: why, in words.
    Failed(String),
}

/// One server's authorization: the current tokens and the flow that renews them. Shared by
/// every request of a connection (and across reconnects).
pub struct Authorizer {
    url: String,
    options: AuthOptions,
    events: EventSink,
    manager: Mutex<Option<AuthorizationManager>>,
    /// One flow at a time; requests that failed together wait for the first one's outcome.
    flow: Mutex<()>,
    /// Bumped on every new token set, so a request knows whether its 401 is already handled.
    generation: AtomicU64,
    /// Whether a 401 in the middle of a session runs the flow there and then (once connected;
    /// while connecting, the 401 ends the attempt and the flow runs outside its deadline).
    in_session: AtomicBool,
    step_ups: AtomicU32,
    granted: std::sync::Mutex<Vec<String>>,
    /// The last challenge of a 401 while connecting: the handshake may fail on something else
    /// after it (a probe that falls back to `initialize`), and the 401 is still the reason.
    challenged: std::sync::Mutex<Option<String>>,
    /// This process's DPoP key, made the first time DPoP is asked for.
    dpop: std::sync::OnceLock<Arc<dpop::Dpop>>,
    /// Whether the current token is DPoP-bound (`token_type: DPoP`).
    bound: AtomicBool,
}

impl Authorizer {
    /// The authorizer of `url`; with stored tokens, they are used from the first request on.
    pub async fn new(url: &str, options: AuthOptions, events: &EventSink) -> Arc<Authorizer> {
        if let Some(secret) = &options.client_secret {
            crate::secrets::register(secret);
            // `client_secret_basic` sends `Basic base64(id:secret)`: a secret in that form too.
            if let Some(id) = &options.client_id {
                crate::secrets::register_basic(id, secret);
            }
        }
        let authorizer = Authorizer {
            url: url.to_string(),
            options,
            events: events.clone(),
            manager: Mutex::new(None),
            flow: Mutex::new(()),
            generation: AtomicU64::new(0),
            in_session: AtomicBool::new(false),
            step_ups: AtomicU32::new(0),
            granted: std::sync::Mutex::new(Vec::new()),
            challenged: std::sync::Mutex::new(None),
            dpop: std::sync::OnceLock::new(),
            bound: AtomicBool::new(false),
        };
        if let Some(store) = authorizer.file_store()
            && store.load().await.ok().flatten().is_some()
        {
            match manager_for(url, None).await {
                Ok(mut manager) => {
                    manager.set_credential_store(store);
                    match manager.initialize_from_store().await {
                        // Its key was this process's alone: a new run cannot prove it.
                        Ok(true) if dpop_bound(&manager).await => authorizer.say(
                            "the stored token is bound to an earlier run's DPoP key; it was set aside",
                        ),
                        Ok(true) => {
                            authorizer.say("using the stored token");
                            *authorizer.manager.lock().await = Some(manager);
                        }
                        Ok(false) => authorizer.say("the stored token is for another authorization server; it was set aside"),
                        Err(e) => authorizer.say(&format!("the stored token cannot be used: {}", words(&e))),
                    }
                }
                Err(e) => {
                    authorizer.say(&format!("the stored token cannot be used: {}", words(&e)))
                }
            }
        }
        Arc::new(authorizer)
    }

    fn file_store(&self) -> Option<store::FileStore> {
        self.options
            .store
            .then(|| store::FileStore::for_url(&self.url))
            .flatten()
    }

    fn say(&self, text: &str) {
        self.tell(AuthStep::Said(text.into()));
    }

    fn tell(&self, step: AuthStep) {
        let redact = |text: String| crate::secrets::redact(&text).into_owned();
        self.events.send(ServerEvent::Authorization(match step {
            AuthStep::Said(t) => AuthStep::Said(redact(t)),
            AuthStep::Open(t) => AuthStep::Open(redact(t)),
            AuthStep::Authorized(t) => AuthStep::Authorized(redact(t)),
            AuthStep::Failed(t) => AuthStep::Failed(redact(t)),
        }));
    }

    /// The connection attempt got a 401 with `challenge`: authorizes before the next attempt.
    pub async fn before_connecting(&self, challenge: Option<&str>) -> Result<(), AuthFailure> {
        let _flow = self.flow.lock().await;
        self.authorize(challenge).await
    }

    /// Whether a 401 was met while connecting (and not yet taken).
    pub fn challenged(&self) -> bool {
        self.challenged
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }

    /// The challenge of a 401 met while connecting, once.
    pub fn take_challenge(&self) -> Option<String> {
        self.challenged
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    /// From now on a 401 or 403 runs the flow where it happens.
    pub fn connected(&self) {
        self.in_session.store(true, Ordering::SeqCst);
    }

    /// A request went through with the current token: step-ups start counting again.
    pub fn succeeded(&self) {
        self.step_ups.store(0, Ordering::SeqCst);
    }

    /// The access token for the next request (refreshed when it is about to expire) and its
    /// generation; `None` before any authorization.
    pub async fn token(&self) -> (Option<String>, u64) {
        let generation = self.generation.load(Ordering::SeqCst);
        let manager = self.manager.lock().await;
        let Some(manager) = manager.as_ref() else {
            return (None, generation);
        };
        match manager.get_access_token().await {
            Ok(token) => {
                crate::secrets::register(&token);
                (Some(token), generation)
            }
            Err(e) => {
                if !matches!(e, AuthError::AuthorizationRequired) {
                    self.say(&format!("the token could not be refreshed: {}", words(&e)));
                }
                (None, generation)
            }
        }
    }

    /// A request sent with the token of `generation` got a 401 with `challenge`: authorizes
    /// again (once for all requests that failed with that token). Mid-session only; while
    /// connecting the caller ends the attempt instead.
    pub async fn unauthorized(
        self: &Arc<Self>,
        challenge: &str,
        generation: u64,
    ) -> Result<(), AuthFailure> {
        if !self.in_session.load(Ordering::SeqCst) {
            *self.challenged.lock().unwrap_or_else(|p| p.into_inner()) = Some(challenge.into());
            return Err(AuthFailure::NeedsUser);
        }
        self.detached(challenge, generation, |this, challenge| async move {
            this.say("the server refused the token (HTTP 401): authorizing again");
            this.authorize(Some(&challenge)).await
        })
        .await
    }

    /// A request got a 403 `insufficient_scope`: authorizes again for the scopes held so far
    /// and the ones asked for, a bounded number of times in a row.
    pub async fn forbidden(
        self: &Arc<Self>,
        challenge: &str,
        generation: u64,
    ) -> Result<(), AuthFailure> {
        self.detached(challenge, generation, |this, challenge| async move {
            if this.step_ups.fetch_add(1, Ordering::SeqCst) >= MAX_STEP_UPS {
                return Err(AuthFailure::Failed(format!(
                    "the server still refuses for lack of scope after {MAX_STEP_UPS} new authorizations; not asking again"
                )));
            }
            let asked = reqwest::Url::parse(&this.url)
                .ok()
                .and_then(|base| WWWAuthenticateParams::parse(&challenge, &base).scope)
                .unwrap_or_else(|| "(no scope named)".into());
            this.say(&format!(
                "the server refused for lack of scope (HTTP 403, it asks for {asked}): authorizing again for more"
            ));
            this.authorize(Some(&challenge)).await
        })
        .await
    }

    /// Runs `flow` (one at a time; not at all when a flow already replaced the token of
    /// `generation`) in a task of its own: the request that asked may give up at its timeout
    /// while the user is still in the browser, and the token still arrives for the next one.
    async fn detached<F, Fut>(
        self: &Arc<Self>,
        challenge: &str,
        generation: u64,
        flow: F,
    ) -> Result<(), AuthFailure>
    where
        F: FnOnce(Arc<Self>, String) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Result<(), AuthFailure>> + Send,
    {
        let this = self.clone();
        let challenge = challenge.to_string();
        let task = tokio::spawn(async move {
            let _flow = this.flow.lock().await;
            if this.generation.load(Ordering::SeqCst) != generation {
                return Ok(());
            }
            flow(this.clone(), challenge).await
        });
        task.await.unwrap_or_else(|e| {
            Err(AuthFailure::Failed(format!(
                "the authorization stopped: {e}"
            )))
        })
    }

    /// What a request to `url` with `method` carries to present `token`: `Authorization`, and
    /// for a DPoP-bound token its scheme and a fresh proof.
    pub fn present(&self, token: &str, method: &str, url: &str) -> Vec<(&'static str, String)> {
        match (self.bound.load(Ordering::SeqCst), self.dpop.get()) {
            (true, Some(dpop)) => vec![
                ("authorization", format!("DPoP {token}")),
                ("dpop", dpop.proof(method, url, Some(token))),
            ],
            _ => vec![("authorization", format!("Bearer {token}"))],
        }
    }

    /// Keeps a `DPoP-Nonce` a response from `url` carried: true when the request is worth
    /// sending again with it (a DPoP-bound token, and a nonce given).
    pub fn noted(&self, url: &str, headers: &reqwest::header::HeaderMap) -> bool {
        self.bound.load(Ordering::SeqCst) && self.dpop.get().is_some_and(|d| d.noted(url, headers))
    }

    /// The DPoP key, made now when DPoP is asked for (`--dpop`, or a challenge whose scheme is
    /// DPoP) and was not yet.
    fn dpop_for(&self, challenge: Option<&str>) -> Option<Arc<dpop::Dpop>> {
        if let Some(dpop) = self.dpop.get() {
            return Some(dpop.clone());
        }
        let named = challenge.is_some_and(|c| {
            c.trim_start()
                .get(..4)
                .is_some_and(|s| s.eq_ignore_ascii_case("dpop"))
        });
        if !(self.options.dpop || named) {
            return None;
        }
        match dpop::Dpop::new() {
            Ok(made) => Some(self.dpop.get_or_init(|| Arc::new(made)).clone()),
            Err(why) => {
                self.say(&why);
                None
            }
        }
    }

    /// Runs the flow the options allow (caller holds `flow`); on success the new token set
    /// replaces the old.
    async fn authorize(&self, challenge: Option<&str>) -> Result<(), AuthFailure> {
        if self.dpop_for(challenge).is_some() {
            self.say(
                "asking for DPoP-bound tokens (RFC 9449): a key of this run proves each request",
            );
        }
        let manager = if let Some(grant) = &self.options.assertion {
            self.assertion_grant(grant).await
        } else if self.options.client_credentials {
            self.client_credentials().await
        } else if self.options.interactive {
            self.code_flow(challenge).await
        } else {
            return Err(self.why_not_asked(challenge).await);
        };
        let manager = manager.inspect_err(|e| {
            if let AuthFailure::Failed(why) = e {
                self.tell(AuthStep::Failed(why.clone()));
            }
        })?;
        self.bound
            .store(dpop_bound(&manager).await, Ordering::SeqCst);
        if let Ok((client_id, Some(tokens))) = manager.get_credentials().await {
            use oauth2::TokenResponse;
            store::register_tokens(&tokens);
            let scopes: Vec<String> = tokens
                .scopes()
                .map(|s| s.iter().map(|s| s.to_string()).collect())
                .unwrap_or_default();
            let lasts = tokens
                .expires_in()
                .map(|d| format!(", valid {} s", d.as_secs()))
                .unwrap_or_default();
            let refresh = if tokens.refresh_token().is_some() {
                ", refreshable"
            } else {
                ""
            };
            let kept = if self.file_store().is_some() {
                "; kept for next time"
            } else {
                ""
            };
            self.tell(AuthStep::Authorized(format!(
                "authorized as client {client_id}: scopes {}{lasts}{refresh}{kept}",
                if scopes.is_empty() {
                    "(none named)".to_string()
                } else {
                    scopes.join(" ")
                }
            )));
            *self.granted.lock().unwrap_or_else(|p| p.into_inner()) = scopes;
        }
        *self.manager.lock().await = Some(manager);
        self.generation.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

fn failed(e: AuthError) -> AuthFailure {
    match e {
        AuthError::NoAuthorizationSupport => AuthFailure::NoOAuth,
        e => AuthFailure::Failed(words(&e)),
    }
}

/// An rmcp auth error in one line, its sources included, secrets redacted.
fn words(e: &AuthError) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    crate::untrusted::line(&crate::secrets::redact(&text), 600).into_owned()
}

/// rmcp's OAuth manager for `url`, once TLS has its crypto (its HTTP client is built inside);
/// with DPoP, its requests go through [`dpop::DpopOAuthClient`], which proves token requests.
async fn manager_for(
    url: &str,
    dpop: Option<Arc<dpop::Dpop>>,
) -> Result<AuthorizationManager, AuthError> {
    crate::mcp::transport::http::tls_crypto_installed();
    match dpop {
        Some(dpop) => {
            let http = crate::mcp::transport::http::client();
            let client = Arc::new(dpop::DpopOAuthClient { dpop, http });
            AuthorizationManager::new_with_oauth_http_client(url, client).await
        }
        None => AuthorizationManager::new(url).await,
    }
}

/// Whether the manager's token set is DPoP-bound (`token_type: DPoP`).
async fn dpop_bound(manager: &AuthorizationManager) -> bool {
    use oauth2::TokenResponse;
    match manager.get_credentials().await {
        Ok((_, Some(tokens))) => tokens.token_type().as_ref().eq_ignore_ascii_case("dpop"),
        _ => false,
    }
}
