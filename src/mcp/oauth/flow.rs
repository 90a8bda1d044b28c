//! The flows that get a token: the authorization code with PKCE through the browser and a
//! loopback redirect (or a pasted one), and the client credentials grant; and what they tell
//! the user on the way.

use super::{AuthFailure, Authorizer, BROWSER_WAIT, browser, failed, loopback};
use crate::mcp::session::events::AuthStep;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationMetadataResolution, AuthorizationMetadataSource,
    AuthorizationRequest, AuthorizationSession, ClientCredentialsConfig, InMemoryCredentialStore,
    OAuthState, WWWAuthenticateParams,
};

impl Authorizer {
    /// A manager for this server, keeping what it obtains where the options say.
    pub(super) async fn new_manager(&self) -> Result<AuthorizationManager, AuthFailure> {
        let mut manager = super::manager_for(self.url.as_str(), self.dpop.get().cloned())
            .await
            .map_err(failed)?;
        match self.file_store() {
            Some(store) => manager.set_credential_store(store),
            None => manager.set_credential_store(InMemoryCredentialStore::new()),
        }
        Ok(manager)
    }

    pub(super) async fn client_credentials(&self) -> Result<AuthorizationManager, AuthFailure> {
        let (Some(client_id), Some(client_secret)) =
            (&self.options.client_id, &self.options.client_secret)
        else {
            return Err(AuthFailure::Failed(
                "--client-credentials needs --client-id and --client-secret-env".into(),
            ));
        };
        self.say("asking the authorization server for a token (client credentials)");
        let mut state = OAuthState::Unauthorized(self.new_manager().await?);
        let config = ClientCredentialsConfig::ClientSecret {
            client_id: client_id.clone(),
            client_secret: client_secret.clone(),
            scopes: Vec::new(),
            resource: Some(self.url.clone()),
        };
        self.within("the token", state.authenticate_client_credentials(config))
            .await?
            .map_err(failed)?;
        state.into_authorization_manager().ok_or_else(|| {
            AuthFailure::Failed("the client credentials grant did not authorize".into())
        })
    }

    /// The authorization code flow with PKCE through the browser and a loopback redirect (or
    /// a pasted redirect URL).
    pub(super) async fn code_flow(
        &self,
        challenge: Option<&str>,
    ) -> Result<AuthorizationManager, AuthFailure> {
        let loopback = loopback::Loopback::bind(None).await.map_err(|e| {
            AuthFailure::Failed(format!("cannot listen on 127.0.0.1 for the redirect: {e}"))
        })?;
        self.say(&format!(
            "discovering how {} is authorized",
            crate::untrusted::line(&self.url, 200)
        ));
        let mut manager = self.new_manager().await?;
        let found = self
            .within(
                "its metadata",
                manager.resolve_metadata_from_challenge(challenge),
            )
            .await?
            .map_err(failed)?;
        self.say(&found_where(&found));
        manager.set_metadata(found.metadata);
        let request = self.authorization_request(&loopback.redirect_uri, challenge);
        let session = self
            .within("a client", AuthorizationSession::new(manager, request))
            .await?
            .map_err(|(_, e)| failed(e))?;
        if let Ok((client_id, _)) = session.get_credentials().await {
            let how = if self.options.client_id.is_some() {
                "the pre-registered client"
            } else if self.options.client_metadata_url.as_deref() == Some(client_id.as_str()) {
                "the client metadata document"
            } else {
                "registered dynamically as client"
            };
            self.say(&format!("client: {how} {client_id}"));
        }
        let url = session.get_authorization_url().to_string();
        self.say(&format!(
            "waiting for the browser's redirect to {}",
            loopback.redirect_uri
        ));
        let callback = self.browser_comes_back(&loopback, url).await?;
        refused(&callback)?;
        self.say("the browser came back; exchanging the code for a token");
        self.within("the token", session.handle_callback_url(&callback))
            .await?
            .map_err(failed)?;
        Ok(session.auth_manager)
    }

    /// What is asked of the authorization server: a native client redirected to `redirect`,
    /// the scopes held and asked for, the client given (pre-registered, or a metadata URL).
    fn authorization_request(
        &self,
        redirect: &str,
        challenge: Option<&str>,
    ) -> AuthorizationRequest {
        let mut request = AuthorizationRequest::new(redirect)
            .with_client_name("mcp-inspect")
            .with_application_type("native");
        if let Some(challenge) = challenge {
            request = request.with_challenge(challenge);
        }
        let scopes = self.scopes_for(challenge);
        if !scopes.is_empty() {
            request = request.with_scopes(scopes);
        }
        if let Some(id) = &self.options.client_id {
            request = request.with_preregistered_client(id);
            if let Some(secret) = &self.options.client_secret {
                request = request.with_client_secret(secret);
            }
        }
        if let Some(url) = &self.options.client_metadata_url {
            request = request.with_client_metadata_url(url);
        }
        request
    }

    /// Shows `url` (and opens a browser on it, unless told not to), then waits for where the
    /// browser ends: the loopback redirect, or an address pasted by the user.
    async fn browser_comes_back(
        &self,
        loopback: &loopback::Loopback,
        url: String,
    ) -> Result<String, AuthFailure> {
        self.tell(AuthStep::Open(url.clone()));
        if self.options.open_browser {
            let opening = url.clone();
            let opened = tokio::task::spawn_blocking(move || browser::open(&opening))
                .await
                .unwrap_or_else(|e| Err(format!("the opener failed: {e}")));
            match opened {
                Ok(with) => self.say(&format!("opened it with {with}")),
                // Nobody can finish: no browser, and no terminal or panel to paste into
                // (headless with stdin not a terminal). Said now, not after minutes.
                Err(why) if self.options.pasted.is_none() => {
                    return Err(AuthFailure::Failed(format!(
                        "{why}, and the address it ends at cannot be pasted (stdin is not a terminal): run with --no-browser to open the URL yourself, or give a token with --bearer-env"
                    )));
                }
                Err(why) => self.say(&format!("{why}; open it yourself")),
            }
        }
        let pasted = async {
            match &self.options.pasted {
                Some(pasted) => pasted.next().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            url = loopback.callback() => Ok(url),
            url = pasted => match url.trim() {
                "" => Err(AuthFailure::Failed("cancelled by the user".into())),
                url => Ok(url.to_string()),
            },
            () = tokio::time::sleep(BROWSER_WAIT) => Err(AuthFailure::Failed(format!(
                "no answer from the browser within {} s", BROWSER_WAIT.as_secs()
            ))),
        }
    }

    /// `work` (a wait on the authorization server) within `--timeout`: a server that drips
    /// its metadata costs the timeout the user gave, not rmcp's 30 s a request.
    pub(super) async fn within<T>(
        &self,
        what: &str,
        work: impl std::future::Future<Output = T>,
    ) -> Result<T, AuthFailure> {
        if self.options.timeout.is_zero() {
            return Ok(work.await);
        }
        tokio::time::timeout(self.options.timeout, work)
            .await
            .map_err(|_| {
                AuthFailure::Failed(format!(
                    "the authorization server did not give {what} within {} s (--timeout)",
                    self.options.timeout.as_secs_f64()
                ))
            })
    }

    /// Why a command that may not ask the user stops: the server needs OAuth, or (no metadata
    /// to be found) it wants a token given another way.
    pub(super) async fn why_not_asked(&self, challenge: Option<&str>) -> AuthFailure {
        let Ok(manager) = super::manager_for(self.url.as_str(), None).await else {
            return AuthFailure::NeedsUser;
        };
        let Ok(found) = self
            .within(
                "its metadata",
                manager.resolve_metadata_from_challenge(challenge),
            )
            .await
        else {
            return AuthFailure::NeedsUser;
        };
        match found {
            Err(AuthError::NoAuthorizationSupport) => AuthFailure::NoOAuth,
            _ => AuthFailure::NeedsUser,
        }
    }

    /// The scopes held so far and those `challenge` asks for (SEP-2350's union); empty to let
    /// rmcp choose from the challenge and the metadata.
    pub(super) fn scopes_for(&self, challenge: Option<&str>) -> Vec<String> {
        let mut scopes = self
            .granted
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if scopes.is_empty() {
            return scopes;
        }
        let base = reqwest::Url::parse(&self.url).ok();
        if let (Some(challenge), Some(base)) = (challenge, base) {
            let asked = WWWAuthenticateParams::parse(challenge, &base).scope;
            for scope in asked.iter().flat_map(|s| s.split_whitespace()) {
                if !scopes.iter().any(|s| s == scope) {
                    scopes.push(scope.to_string());
                }
            }
        }
        scopes
    }
}

/// Which authorization server discovery found, and how: what the auth panel and stderr say.
fn found_where(found: &AuthorizationMetadataResolution) -> String {
    let m = &found.metadata;
    let how = match found.source {
        AuthorizationMetadataSource::ProtectedResourceMetadata => {
            "named by the server's protected resource metadata"
        }
        AuthorizationMetadataSource::AuthorizationServerMetadata => {
            "found at the server's own origin (no protected resource metadata)"
        }
        _ => "not published: the 2025-03-26 default endpoints are tried",
    };
    let scopes = m
        .scopes_supported
        .as_ref()
        .map(|s| format!("; scopes supported: {}", s.join(" ")))
        .unwrap_or_default();
    let registration = if m.registration_endpoint.is_some() {
        ", dynamic registration"
    } else {
        ""
    };
    crate::untrusted::line(
        &format!(
            "authorization server {} ({how}): authorize at {}, tokens at {}{registration}{scopes}",
            m.issuer.as_deref().unwrap_or("(no issuer named)"),
            m.authorization_endpoint,
            m.token_endpoint
        ),
        1_000,
    )
    .into_owned()
}

/// A redirect that carries `error=` instead of a code: the authorization server's refusal.
fn refused(callback: &str) -> Result<(), AuthFailure> {
    let Ok(url) = reqwest::Url::parse(callback) else {
        return Err(AuthFailure::Failed("the pasted text is not a URL".into()));
    };
    let param = |name: &str| {
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| crate::untrusted::line(&v, 300).into_owned())
    };
    if let Some(code) = param("code") {
        crate::secrets::register(&code);
    }
    match param("error") {
        Some(error) => Err(AuthFailure::Failed(format!(
            "the authorization server refused: {error}{}",
            param("error_description")
                .map(|d| format!(" ({d})"))
                .unwrap_or_default()
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_in_the_redirect_is_said_and_a_code_is_a_secret() {
        let err = refused(
            "http://127.0.0.1:1/callback?error=access_denied&error_description=no%20thanks&state=s",
        )
        .expect_err("refused");
        assert_eq!(
            err,
            AuthFailure::Failed(
                "the authorization server refused: access_denied (no thanks)".into()
            )
        );
        refused("http://127.0.0.1:1/callback?code=c0de-c0de-c0de&state=s").expect("a code");
        assert_eq!(
            crate::secrets::redact("c0de-c0de-c0de"),
            crate::secrets::REDACTED
        );
        assert!(refused("not a url").is_err());
    }
}
