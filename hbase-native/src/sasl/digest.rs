//! The client side of SASL DIGEST-MD5 (RFC 2831) as HBase's delegation
//! tokens use it: authentication only (`qop=auth`), the token's
//! identifier as the user name and its password as the password, both in
//! base64, realm and server name `default` and no protocol (Java's
//! `DigestMD5Client` with a null protocol: the digest-uri is
//! `null/default`).

use md5::{Digest, Md5};

/// The digest-uri Java's client and server both make for HBase's tokens.
pub(crate) const DIGEST_URI: &str = "null/default";

/// The directives of a challenge: `key=value` or `key="quoted"`, comma
/// separated (a directive may appear more than once: `realm`).
pub(crate) fn directives(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut rest = text.trim_start_matches([' ', ',', '\t']);
    while !rest.is_empty() {
        let (key, after) = rest
            .split_once('=')
            .ok_or_else(|| format!("a directive without '=' in {text:?}"))?;
        let key = key.trim().to_ascii_lowercase();
        let (value, after) = if let Some(quoted) = after.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some((_, e)) => value.push(e),
                        None => break,
                    },
                    '"' => {
                        end = Some(i);
                        break;
                    }
                    c => value.push(c),
                }
            }
            let end = end.ok_or_else(|| format!("an unclosed quote in {text:?}"))?;
            (value, &quoted[end + 1..])
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim().to_owned(), &after[end..])
        };
        out.push((key, value));
        rest = after.trim_start_matches([' ', ',', '\t']);
    }
    Ok(out)
}

fn md5(parts: &[&[u8]]) -> [u8; 16] {
    let mut h = Md5::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a client answers a challenge with, and the `rspauth` the server
/// must answer with in turn.
pub(crate) struct DigestResponse {
    pub(crate) response: String,
    pub(crate) rspauth: String,
}

/// The response to `challenge` as `username` with `password`, with the
/// client nonce `cnonce` (RFC 2831 2.1.2), for `qop=auth`.
pub(crate) fn respond(
    challenge: &str,
    username: &str,
    password: &str,
    cnonce: &str,
    digest_uri: &str,
) -> Result<DigestResponse, String> {
    let directives = directives(challenge)?;
    let get = |k: &str| {
        directives
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let nonce = get("nonce").ok_or("a DIGEST-MD5 challenge without a nonce")?;
    let realm = get("realm").unwrap_or_default();
    if get("algorithm") != Some("md5-sess") {
        return Err(format!(
            "a DIGEST-MD5 challenge with algorithm {:?}, not md5-sess",
            get("algorithm")
        ));
    }
    let qops = get("qop").unwrap_or("auth");
    if !qops.split(',').any(|q| q.trim() == "auth") {
        return Err(format!(
            "the server offers DIGEST-MD5 with qop {qops:?} only: delegation tokens work here \
             with hbase.rpc.protection=authentication (integrity and privacy need Kerberos)"
        ));
    }
    let nc = "00000001";
    let secret = md5(&[
        username.as_bytes(),
        b":",
        realm.as_bytes(),
        b":",
        password.as_bytes(),
    ]);
    let ha1 = hex(&md5(&[
        &secret,
        b":",
        nonce.as_bytes(),
        b":",
        cnonce.as_bytes(),
    ]));
    let digest = |a2: &str| {
        let ha2 = hex(&md5(&[a2.as_bytes()]));
        hex(&md5(&[
            ha1.as_bytes(),
            b":",
            nonce.as_bytes(),
            b":",
            nc.as_bytes(),
            b":",
            cnonce.as_bytes(),
            b":auth:",
            ha2.as_bytes(),
        ]))
    };
    let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let mut response = String::new();
    if get("charset") == Some("utf-8") {
        response.push_str("charset=utf-8,");
    }
    response.push_str(&format!(
        "username=\"{}\",realm=\"{}\",nonce=\"{}\",nc={nc},cnonce=\"{}\",digest-uri=\"{}\",\
         maxbuf=65536,response={},qop=auth",
        quote(username),
        quote(realm),
        quote(nonce),
        quote(cnonce),
        quote(digest_uri),
        digest(&format!("AUTHENTICATE:{digest_uri}")),
    ));
    Ok(DigestResponse {
        response,
        rspauth: digest(&format!(":{digest_uri}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 2831's own example (section 4), with its IMAP digest-uri.
    #[test]
    fn the_rfcs_example() {
        let challenge = "realm=\"elwood.innosoft.com\",nonce=\"OA6MG9tEQGm2hh\",qop=\"auth\",\
                         algorithm=md5-sess,charset=utf-8";
        let r = respond(
            challenge,
            "chris",
            "secret",
            "OA6MHXh6VqTrRk",
            "imap/elwood.innosoft.com",
        )
        .unwrap();
        assert!(
            r.response
                .contains("response=d388dad90d4bbd760a152321f2143af7"),
            "{}",
            r.response
        );
        assert_eq!(r.rspauth, "ea40f60335c427b5527b84dbabcdfffd");
        assert!(r.response.starts_with("charset=utf-8,username=\"chris\""));
    }

    #[test]
    fn challenges_parse_with_quotes_escapes_and_repeats() {
        let d = directives(r#"realm="a,b",realm="c\"d", nonce=xyz ,qop="auth,auth-int""#).unwrap();
        assert_eq!(
            d,
            vec![
                ("realm".into(), "a,b".into()),
                ("realm".into(), "c\"d".into()),
                ("nonce".into(), "xyz".into()),
                ("qop".into(), "auth,auth-int".into()),
            ]
        );
        assert!(directives("realm=\"open").is_err());
        assert!(directives("noequals").is_err());
    }

    #[test]
    fn a_server_that_wants_privacy_is_refused_with_why() {
        let e = respond(
            "nonce=\"n\",qop=\"auth-conf\",algorithm=md5-sess",
            "u",
            "p",
            "c",
            DIGEST_URI,
        )
        .err()
        .unwrap();
        assert!(e.contains("authentication"), "{e}");
        assert!(respond("qop=\"auth\",algorithm=md5-sess", "u", "p", "c", DIGEST_URI).is_err());
    }

    proptest::proptest! {
        /// No challenge, however broken, panics.
        #[test]
        fn any_challenge_is_an_answer_or_an_error(text in ".{0,200}") {
            let _ = respond(&text, "u", "p", "c", DIGEST_URI);
        }
    }
}
