//! DPoP (RFC 9449, SEP-1932): access tokens bound to a key this process made and never writes
//! down. Every token request and every request to the server carries a proof (a JWT signed
//! with the key, naming the method and URL, and for the server a hash of the token); a server
//! that answers `use_dpop_nonce` with a `DPoP-Nonce` is asked once more with the nonce in the
//! proof, and the nonce is kept for that server's next requests.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use oauth2::http;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use rmcp::transport::auth::{
    OAuthHttpClient, OAuthHttpClientError, OAuthHttpClientFuture, OAuthHttpRequest,
};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Bytes of an authorization server's answer read.
const MAX_ANSWER: usize = 1 << 20;

/// This process's DPoP key and the nonces servers gave it.
pub struct Dpop {
    key: EcdsaKeyPair,
    jwk: Value,
    rng: ring::rand::SystemRandom,
    /// The last `DPoP-Nonce` of each origin.
    nonces: Mutex<HashMap<String, String>>,
}

impl Dpop {
    /// A fresh P-256 key.
    pub fn new() -> Result<Dpop, String> {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|_| "no DPoP key could be made".to_string())?;
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
            .map_err(|_| "no DPoP key could be made".to_string())?;
        // The public key is the uncompressed point: 0x04, then x and y, 32 bytes each.
        let point = key.public_key().as_ref();
        let (x, y) = point[1..].split_at(32);
        let jwk = json!({"kty": "EC", "crv": "P-256",
            "x": URL_SAFE_NO_PAD.encode(x), "y": URL_SAFE_NO_PAD.encode(y)});
        Ok(Dpop {
            key,
            jwk,
            rng,
            nonces: Mutex::new(HashMap::new()),
        })
    }

    /// A proof for `method` on `url` (its query and fragment left out, as `htu` must), with
    /// the hash of `token` when the request presents one, and the origin's nonce if it gave one.
    pub fn proof(&self, method: &str, url: &str, token: Option<&str>) -> String {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut jti = [0u8; 16];
        let _ = ring::rand::SecureRandom::fill(&self.rng, &mut jti);
        let mut claims = json!({"jti": URL_SAFE_NO_PAD.encode(jti), "htm": method,
            "htu": htu(url), "iat": now});
        if let Some(token) = token {
            let hash = ring::digest::digest(&ring::digest::SHA256, token.as_bytes());
            claims["ath"] = json!(URL_SAFE_NO_PAD.encode(hash.as_ref()));
        }
        if let Some(nonce) = self.nonce(url) {
            claims["nonce"] = json!(nonce);
        }
        let header = json!({"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk});
        let part = |v: &Value| URL_SAFE_NO_PAD.encode(v.to_string());
        let input = format!("{}.{}", part(&header), part(&claims));
        let signature = self
            .key
            .sign(&self.rng, input.as_bytes())
            .map(|s| URL_SAFE_NO_PAD.encode(s.as_ref()))
            .unwrap_or_default();
        format!("{input}.{signature}")
    }

    /// Keeps the `DPoP-Nonce` a response from `url` carried, if it carried one; true when it
    /// did.
    pub fn noted(&self, url: &str, headers: &http::HeaderMap) -> bool {
        let Some(nonce) = headers.get("dpop-nonce").and_then(|v| v.to_str().ok()) else {
            return false;
        };
        if let Ok(mut nonces) = self.nonces.lock() {
            nonces.insert(origin(url), nonce.to_string());
        }
        true
    }

    fn nonce(&self, url: &str) -> Option<String> {
        self.nonces.lock().ok()?.get(&origin(url)).cloned()
    }
}

/// `url` without its query and fragment.
fn htu(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    &url[..end]
}

/// `scheme://host:port` of `url`.
fn origin(url: &str) -> String {
    reqwest::Url::parse(url)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_default()
}

/// Whether a challenge or an error body asks for a nonce.
pub fn wants_nonce(text: &str) -> bool {
    text.contains("use_dpop_nonce")
}

/// rmcp's OAuth requests, sent by our HTTP client (same-origin 307/308 redirects only): a
/// token request (a POST with a `grant_type`) carries a proof, and one refused with
/// `use_dpop_nonce` is sent once more with the nonce.
pub struct DpopOAuthClient {
    pub dpop: Arc<Dpop>,
    pub http: reqwest::Client,
}

impl OAuthHttpClient for DpopOAuthClient {
    fn execute(&self, request: OAuthHttpRequest) -> OAuthHttpClientFuture<'_> {
        Box::pin(async move {
            let OAuthHttpRequest { request, .. } = request;
            let (parts, body) = request.into_parts();
            let url = parts.uri.to_string();
            let token_request = parts.method == http::Method::POST
                && String::from_utf8_lossy(&body).contains("grant_type=");
            let mut asked_again = false;
            loop {
                let mut sending = self.http.request(parts.method.clone(), &url);
                for (name, value) in &parts.headers {
                    sending = sending.header(name, value);
                }
                if token_request {
                    sending = sending.header("DPoP", self.dpop.proof("POST", &url, None));
                }
                let response = sending
                    .body(body.clone())
                    .send()
                    .await
                    .map_err(|e| Box::new(e) as OAuthHttpClientError)?;
                let nonce_given = self.dpop.noted(&url, response.headers());
                let (status, headers) = (response.status(), response.headers().clone());
                let answer = read_bounded(response).await?;
                let retry = token_request
                    && !asked_again
                    && nonce_given
                    && status.is_client_error()
                    && wants_nonce(&String::from_utf8_lossy(&answer));
                if retry {
                    asked_again = true;
                    continue;
                }
                let mut built = http::Response::builder().status(status);
                for (name, value) in &headers {
                    built = built.header(name, value);
                }
                return built
                    .body(answer)
                    .map_err(|e| Box::new(e) as OAuthHttpClientError);
            }
        })
    }
}

async fn read_bounded(mut response: reqwest::Response) -> Result<Vec<u8>, OAuthHttpClientError> {
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| Box::new(e) as OAuthHttpClientError)?
    {
        if body.len() + chunk.len() > MAX_ANSWER {
            return Err("an authorization server's answer over 1 MiB".into());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_is_signed_by_the_key_it_names_and_binds_method_url_token_and_nonce() {
        let dpop = Dpop::new().expect("key");
        let mut headers = http::HeaderMap::new();
        headers.insert("dpop-nonce", http::HeaderValue::from_static("n-1"));
        assert!(dpop.noted("https://mcp.example:8443/other", &headers));
        let proof = dpop.proof("POST", "https://mcp.example:8443/mcp?x=1#f", Some("tok"));
        let parts: Vec<&str> = proof.split('.').collect();
        let decode = |p: &str| -> Value {
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(p).expect("b64")).expect("json")
        };
        let (header, claims) = (decode(parts[0]), decode(parts[1]));
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["jwk"]["crv"], "P-256");
        assert!(header["jwk"].get("d").is_none(), "no private part");
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "https://mcp.example:8443/mcp");
        assert_eq!(claims["nonce"], "n-1", "the origin's nonce");
        let hash = ring::digest::digest(&ring::digest::SHA256, b"tok");
        assert_eq!(claims["ath"], URL_SAFE_NO_PAD.encode(hash.as_ref()));
        let point: Vec<u8> = [0x04]
            .into_iter()
            .chain(
                URL_SAFE_NO_PAD
                    .decode(header["jwk"]["x"].as_str().expect("x"))
                    .expect("x"),
            )
            .chain(
                URL_SAFE_NO_PAD
                    .decode(header["jwk"]["y"].as_str().expect("y"))
                    .expect("y"),
            )
            .collect();
        let verifier = ring::signature::UnparsedPublicKey::new(
            &ring::signature::ECDSA_P256_SHA256_FIXED,
            point,
        );
        let signed = format!("{}.{}", parts[0], parts[1]);
        let signature = URL_SAFE_NO_PAD.decode(parts[2]).expect("b64");
        assert!(verifier.verify(signed.as_bytes(), &signature).is_ok());
        let other = dpop.proof("GET", "https://elsewhere.example/mcp", None);
        let claims = decode(other.split('.').nth(1).expect("claims"));
        assert!(claims.get("nonce").is_none() && claims.get("ath").is_none());
        assert_ne!(
            claims["jti"],
            decode(parts[1])["jti"],
            "a fresh jti each time"
        );
    }
}
