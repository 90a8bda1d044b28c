//! The grants that present a signed JWT at the token endpoint, with no browser: the client
//! credentials grant authenticated by a private-key JWT (`--client-key`, RFC 7523 §2.2,
//! SEP-1046; ES256 signed here with ring), the JWT-bearer grant of workload identity
//! federation (`--assertion-file`, RFC 7523 §2.1, SEP-1933), and enterprise-managed
//! authorization (SEP-990: the user's ID token exchanged at their identity provider for an
//! ID-JAG, RFC 8693, which is then the JWT-bearer grant's assertion). A refusal is said as the
//! server wrote it, never retried nor swapped for another grant. Keys, tokens and assertions
//! are secrets: registered before use, never printed.

use super::{AuthFailure, Authorizer, failed};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rmcp::transport::auth::{AuthorizationManager, OAuthState, OAuthTokenResponse};
use serde_json::{Value, json};
use std::path::PathBuf;

const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";
const CLIENT_ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/// A client assertion's lifetime.
const ASSERTION_SECONDS: u64 = 300;
/// Bytes of a token endpoint's answer read.
const MAX_ANSWER: usize = 1 << 20;

/// A grant that presents a JWT.
#[derive(Clone)]
pub enum AssertionGrant {
    /// Client credentials, the client authenticated by a JWT signed with this P-256 key
    /// (PKCS#8 DER).
    PrivateKeyJwt { key: Vec<u8> },
    /// The JWT-bearer grant with the JWT this file holds (read at each grant: workload tokens
    /// rotate).
    JwtBearer { file: PathBuf },
    /// Enterprise-managed: the user's ID token exchanged at the identity provider's token
    /// endpoint for an ID-JAG, presented in the JWT-bearer grant.
    Enterprise {
        idp_token_endpoint: String,
        idp_client_id: Option<String>,
        id_token: String,
    },
}

/// A PEM private key (`-----BEGIN PRIVATE KEY-----`) as DER, its text registered as a secret.
pub fn read_key(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--client-key {}: {e}", path.display()))?;
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .map(str::trim)
        .collect();
    crate::secrets::register(&body);
    for line in text.lines().filter(|l| !l.starts_with("-----")) {
        crate::secrets::register(line.trim());
    }
    let der = base64::engine::general_purpose::STANDARD
        .decode(body.as_bytes())
        .map_err(|_| format!("--client-key {}: not a PEM private key", path.display()))?;
    let rng = ring::rand::SystemRandom::new();
    ring::signature::EcdsaKeyPair::from_pkcs8(
        &ring::signature::ECDSA_P256_SHA256_FIXED_SIGNING,
        &der,
        &rng,
    )
    .map_err(|_| {
        format!(
            "--client-key {}: not a P-256 (ES256) private key in PKCS#8",
            path.display()
        )
    })?;
    Ok(der)
}

/// `header.payload.signature`, ES256.
fn es256(key: &[u8], claims: &Value) -> Result<String, String> {
    let rng = ring::rand::SystemRandom::new();
    let pair = ring::signature::EcdsaKeyPair::from_pkcs8(
        &ring::signature::ECDSA_P256_SHA256_FIXED_SIGNING,
        key,
        &rng,
    )
    .map_err(|_| "the client key is not a P-256 private key".to_string())?;
    let part = |v: &Value| URL_SAFE_NO_PAD.encode(v.to_string());
    let input = format!(
        "{}.{}",
        part(&json!({"alg": "ES256", "typ": "JWT"})),
        part(claims)
    );
    let signature = pair
        .sign(&rng, input.as_bytes())
        .map_err(|_| "signing the client assertion failed".to_string())?;
    Ok(format!(
        "{input}.{}",
        URL_SAFE_NO_PAD.encode(signature.as_ref())
    ))
}

/// A client assertion for `client_id` to the authorization server `audience` (RFC 7523 §3).
fn client_assertion(key: &[u8], client_id: &str, audience: &str) -> Result<String, String> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut jti = [0u8; 16];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut jti)
        .map_err(|_| "no randomness for the assertion's id".to_string())?;
    let claims = json!({"iss": client_id, "sub": client_id, "aud": audience,
        "iat": now, "exp": now + ASSERTION_SECONDS, "jti": URL_SAFE_NO_PAD.encode(jti)});
    es256(key, &claims)
}

impl Authorizer {
    /// Runs `grant` against the authorization server the server names: its token set, in a
    /// manager that uses and refreshes it like any other.
    pub(super) async fn assertion_grant(
        &self,
        grant: &AssertionGrant,
    ) -> Result<AuthorizationManager, AuthFailure> {
        let manager = self.new_manager().await?;
        let found = self
            .within(
                "the authorization server's metadata",
                manager.resolve_metadata(),
            )
            .await?
            .map_err(failed)?;
        let metadata = found.metadata;
        let audience = metadata
            .issuer
            .clone()
            .unwrap_or_else(|| metadata.token_endpoint.clone());
        let form = self.grant_form(grant, &audience).await?;
        let client_id = self.options.client_id.clone();
        let basic = match (grant, &client_id, &self.options.client_secret) {
            (AssertionGrant::Enterprise { .. }, Some(id), Some(secret)) => {
                Some((id.as_str(), secret.as_str()))
            }
            _ => None,
        };
        let answer = self
            .within(
                "the token",
                post_form(&metadata.token_endpoint, &form, basic),
            )
            .await??;
        let token: OAuthTokenResponse = serde_json::from_value(answer).map_err(|e| {
            AuthFailure::Failed(format!(
                "the token endpoint's answer is not a token set: {e}"
            ))
        })?;
        let mut state = OAuthState::Unauthorized(manager);
        let id = client_id.unwrap_or_default();
        self.within("the token", state.set_credentials(&id, token))
            .await?
            .map_err(failed)?;
        state
            .into_authorization_manager()
            .ok_or_else(|| AuthFailure::Failed("the token could not be kept".into()))
    }

    /// The token request's form for `grant` (the enterprise grant's ID-JAG fetched first),
    /// `audience` the authorization server's issuer.
    async fn grant_form(
        &self,
        grant: &AssertionGrant,
        audience: &str,
    ) -> Result<Vec<(&'static str, String)>, AuthFailure> {
        let client_id = self.options.client_id.clone();
        let mut form = vec![("resource", self.url.clone())];
        match grant {
            AssertionGrant::PrivateKeyJwt { key } => {
                let Some(id) = &client_id else {
                    return Err(AuthFailure::Failed("--client-key needs --client-id".into()));
                };
                let assertion = client_assertion(key, id, audience).map_err(AuthFailure::Failed)?;
                crate::secrets::register(&assertion);
                self.say("asking for a token (client credentials, a private-key JWT)");
                form.extend([
                    ("grant_type", "client_credentials".into()),
                    ("client_id", id.clone()),
                    ("client_assertion_type", CLIENT_ASSERTION_TYPE.into()),
                    ("client_assertion", assertion),
                ]);
            }
            AssertionGrant::JwtBearer { file } => {
                let assertion = std::fs::read_to_string(file)
                    .map_err(|e| {
                        AuthFailure::Failed(format!("--assertion-file {}: {e}", file.display()))
                    })?
                    .trim()
                    .to_string();
                crate::secrets::register(&assertion);
                self.say("asking for a token (JWT bearer: the workload's assertion)");
                form.extend([("grant_type", JWT_BEARER.into()), ("assertion", assertion)]);
                if let Some(id) = &client_id {
                    form.push(("client_id", id.clone()));
                }
            }
            AssertionGrant::Enterprise {
                idp_token_endpoint,
                idp_client_id,
                id_token,
            } => {
                let jag = self
                    .id_jag(
                        idp_token_endpoint,
                        idp_client_id.as_deref(),
                        id_token,
                        audience,
                    )
                    .await?;
                self.say("asking for a token (JWT bearer: the ID-JAG)");
                form.extend([("grant_type", JWT_BEARER.into()), ("assertion", jag)]);
            }
        }
        Ok(form)
    }

    /// The ID-JAG the identity provider gives for the user's ID token (RFC 8693).
    async fn id_jag(
        &self,
        endpoint: &str,
        idp_client_id: Option<&str>,
        id_token: &str,
        audience: &str,
    ) -> Result<String, AuthFailure> {
        self.say(
            "exchanging the ID token for an authorization grant (ID-JAG) at the identity provider",
        );
        let mut exchange = vec![
            ("grant_type", TOKEN_EXCHANGE.to_string()),
            ("subject_token", id_token.to_string()),
            ("subject_token_type", ID_TOKEN_TYPE.into()),
            ("requested_token_type", ID_JAG_TYPE.into()),
            ("audience", audience.to_string()),
            ("resource", self.url.clone()),
        ];
        if let Some(id) = idp_client_id {
            exchange.push(("client_id", id.to_string()));
        }
        let answer = self
            .within("the ID-JAG", post_form(endpoint, &exchange, None))
            .await??;
        let jag = id_jag(&answer)?;
        crate::secrets::register(&jag);
        Ok(jag)
    }
}

/// `application/x-www-form-urlencoded`: every byte but the unreserved ones percent-encoded.
fn form_body(form: &[(&str, String)]) -> String {
    form.iter()
        .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn form_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The ID-JAG of a token exchange's answer (`issued_token_type` must say it is one).
fn id_jag(answer: &Value) -> Result<String, AuthFailure> {
    if answer.get("issued_token_type").and_then(Value::as_str) != Some(ID_JAG_TYPE) {
        return Err(AuthFailure::Failed(
            "the identity provider's answer is not an ID-JAG (issued_token_type)".into(),
        ));
    }
    answer
        .get("access_token")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| AuthFailure::Failed("the identity provider's answer has no token".into()))
}

/// POSTs the form to a token endpoint (with `client_secret_basic` when `basic` is given): the
/// answer, or the refusal in the server's words.
async fn post_form(
    endpoint: &str,
    form: &[(&str, String)],
    basic: Option<(&str, &str)>,
) -> Result<Value, AuthFailure> {
    let mut request = crate::mcp::transport::http::client()
        .post(endpoint)
        .header("Accept", "application/json")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(form_body(form));
    if let Some((id, secret)) = basic {
        // RFC 6749 §2.3.1: each part form-encoded before it is joined and base64-encoded.
        let joined = format!("{}:{}", form_encode(id), form_encode(secret));
        let encoded = base64::engine::general_purpose::STANDARD.encode(joined);
        request = request.header("Authorization", format!("Basic {encoded}"));
    }
    let response = request.send().await.map_err(|e| {
        AuthFailure::Failed(format!(
            "{endpoint} could not be reached: {}",
            crate::mcp::transport::http::describe(&e)
        ))
    })?;
    let status = response.status();
    let body = response.bytes().await.map_err(|e| {
        AuthFailure::Failed(format!(
            "the answer of {endpoint} could not be read: {}",
            crate::mcp::transport::http::describe(&e)
        ))
    })?;
    let body = &body[..body.len().min(MAX_ANSWER)];
    let answer: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    if !status.is_success() || answer.get("error").is_some() {
        let said = |key: &str| answer.get(key).and_then(Value::as_str).unwrap_or_default();
        let why = crate::secrets::redact(&format!(
            "{endpoint} refused the grant (HTTP {}): {} {}",
            status.as_u16(),
            said("error"),
            said("error_description")
        ))
        .into_owned();
        return Err(AuthFailure::Failed(
            crate::untrusted::line(why.trim_end(), 600).into_owned(),
        ));
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// An authorization server that refuses every grant, quoting the request it got (the
    /// assertion with it) in its `error_description`: the refusal is said, the assertion not.
    #[tokio::test]
    async fn a_refusal_that_reflects_the_assertion_never_shows_it() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let endpoint = format!("http://{}/token", listener.local_addr().expect("addr"));
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.expect("accept");
            let mut request = vec![0u8; 16 * 1024];
            let n = socket.read(&mut request).await.expect("read");
            let text = String::from_utf8_lossy(&request[..n]).into_owned();
            let body = json!({"error": "invalid_grant", "error_description": text}).to_string();
            let answer = format!(
                "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            socket.write_all(answer.as_bytes()).await.expect("write");
        });
        let assertion = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnbmF0dXJlLXNlY3JldA";
        crate::secrets::register(assertion);
        let form = [
            ("grant_type", JWT_BEARER.to_string()),
            ("assertion", assertion.to_string()),
        ];
        let Err(AuthFailure::Failed(why)) = post_form(&endpoint, &form, None).await else {
            panic!("refused");
        };
        assert!(why.contains("invalid_grant"), "{why}");
        assert!(why.contains("grant_type"), "the reflection is shown: {why}");
        assert!(!why.contains("c2lnbmF0dXJlLXNlY3JldA"), "{why}");
    }

    #[test]
    fn a_client_assertion_is_an_es256_jwt_that_verifies() {
        let rng = ring::rand::SystemRandom::new();
        let key = ring::signature::EcdsaKeyPair::generate_pkcs8(
            &ring::signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            &rng,
        )
        .expect("key");
        let jwt = client_assertion(key.as_ref(), "client-1", "https://as.example").expect("jwt");
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).expect("b64")).expect("json");
        assert_eq!(
            (claims["iss"].as_str(), claims["sub"].as_str()),
            (Some("client-1"), Some("client-1"))
        );
        assert_eq!(claims["aud"], "https://as.example");
        let pair = ring::signature::EcdsaKeyPair::from_pkcs8(
            &ring::signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            key.as_ref(),
            &rng,
        )
        .expect("pair");
        let public = ring::signature::KeyPair::public_key(&pair);
        let verifier = ring::signature::UnparsedPublicKey::new(
            &ring::signature::ECDSA_P256_SHA256_FIXED,
            public.as_ref(),
        );
        let signature = URL_SAFE_NO_PAD.decode(parts[2]).expect("b64");
        let signed = format!("{}.{}", parts[0], parts[1]);
        assert!(verifier.verify(signed.as_bytes(), &signature).is_ok());
    }
}
