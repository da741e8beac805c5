//! Kerberos (SASL GSSAPI) for secure clusters: [`Kerberos`], the
//! credentials and the protection a client asks for; `login.rs` gets the
//! credentials from a ticket cache or a keytab, `handshake.rs` runs HBase's
//! SASL exchange on a new connection, and `layer.rs` wraps the frames after
//! it when the protection level asks for integrity or privacy.

mod handshake;
mod layer;
mod login;

pub(crate) use handshake::{handshake, PREAMBLE};
pub(crate) use layer::{SealedReader, SealedWriter};
pub(crate) use login::Login;

use crate::error::Error;
use std::fmt;
use std::path::PathBuf;

/// A login that failed, as an error: a KDC that did not answer is a
/// network failure, retried as one (a KDC failing over); anything else is
/// the credentials', and another try meets the same.
pub(crate) fn login_error(server: &str, why: String) -> Error {
    if why.contains(login::NO_KDC) {
        Error::connection(server, why)
    } else {
        Error::Authentication {
            server: server.to_owned(),
            why,
        }
    }
}

/// What every frame after authentication gets: HBase's
/// `hbase.rpc.protection`, SASL's quality of protection.
///
/// Ordered weakest first: a client insists on at least
/// [`Kerberos::min_protection`], and the level used is the strongest that
/// both the server offers and the client allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Protection {
    /// Authentication only (`authentication`, SASL `auth`): frames go as
    /// they are.
    Authentication,
    /// Every frame signed (`integrity`, SASL `auth-int`).
    Integrity,
    /// Every frame signed and encrypted (`privacy`, SASL `auth-conf`).
    Privacy,
}

impl Protection {
    /// HBase's name for it (`hbase.rpc.protection`).
    pub fn hbase_name(self) -> &'static str {
        match self {
            Protection::Authentication => "authentication",
            Protection::Integrity => "integrity",
            Protection::Privacy => "privacy",
        }
    }

    /// The bit RFC 4752's security-layer offer uses for it.
    pub(crate) fn layer_bit(self) -> u8 {
        match self {
            Protection::Authentication => 1,
            Protection::Integrity => 2,
            Protection::Privacy => 4,
        }
    }
}

impl fmt::Display for Protection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.hbase_name())
    }
}

/// How a client logs in to a Kerberized cluster
/// (`hbase.security.authentication=kerberos`), set with
/// [`Options::kerberos`](crate::Options::kerberos).
///
/// The default takes the user's ticket from the default credential cache
/// (what `kinit` made, or `KRB5CCNAME`) and names the servers
/// `hbase/_HOST` in the default realm, as HBase's own configuration
/// usually does (`hbase.regionserver.kerberos.principal`). A service that
/// runs for days logs in from a keytab instead ([`Kerberos::keytab`]):
/// MIT Kerberos then gets a new ticket from it before the old one runs out,
/// and no call fails for it. Which krb5.conf is read is MIT Kerberos's
/// choice: `/etc/krb5.conf`, or `KRB5_CONFIG`.
///
/// ```
/// use hbase_native::{Kerberos, Protection};
/// let k = Kerberos::default()
///     .keytab("svc-metrics@EXAMPLE.COM", "/etc/security/keytabs/metrics.keytab")
///     .service_principal("hbase/_HOST@EXAMPLE.COM")
///     .min_protection(Protection::Privacy);
/// assert_eq!(k.min_protection, Protection::Privacy);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Kerberos {
    /// The client's principal and keytab; `None`: the ticket cache.
    pub keytab: Option<(String, PathBuf)>,
    /// The servers' principal: `_HOST` stands for each server's host name
    /// (lower-cased, as HBase's Java client does), and a name without
    /// `@REALM` is in the default realm. Masters and region servers share
    /// it, as they usually do; see [`Kerberos::master_principal`].
    pub service_principal: String,
    /// The masters' principal when it differs
    /// (`hbase.master.kerberos.principal`); `None`: `service_principal`.
    pub master_principal: Option<String>,
    /// The weakest protection this client accepts: a server that offers
    /// only weaker levels is refused before any call is sent.
    pub min_protection: Protection,
}

impl Default for Kerberos {
    fn default() -> Self {
        Kerberos {
            keytab: None,
            service_principal: "hbase/_HOST".into(),
            master_principal: None,
            min_protection: Protection::Authentication,
        }
    }
}

impl Kerberos {
    /// The same, logging in as `principal` from the keytab at `path`.
    pub fn keytab(mut self, principal: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        self.keytab = Some((principal.into(), path.into()));
        self
    }

    /// The same, naming the servers `principal` (`hbase/_HOST@REALM`).
    pub fn service_principal(mut self, principal: impl Into<String>) -> Self {
        self.service_principal = principal.into();
        self
    }

    /// The same, naming the masters `principal`.
    pub fn master_principal(mut self, principal: impl Into<String>) -> Self {
        self.master_principal = Some(principal.into());
        self
    }

    /// The same, refusing servers that offer less than `level`.
    pub fn min_protection(mut self, level: Protection) -> Self {
        self.min_protection = level;
        self
    }

    /// The principal of `server` (`host:port`) for `service`: the pattern
    /// with `_HOST` replaced by the host, lower-cased.
    pub(crate) fn principal_for(&self, server: &str, master: bool) -> String {
        let pattern = match (&self.master_principal, master) {
            (Some(p), true) => p,
            _ => &self.service_principal,
        };
        let host = crate::transport::host_of(server);
        pattern.replace("_HOST", &host.to_ascii_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_is_put_in_lower_case() {
        let k = Kerberos::default().service_principal("hbase/_HOST@EXAMPLE.COM");
        assert_eq!(
            k.principal_for("RS-1.Example.com:16020", false),
            "hbase/rs-1.example.com@EXAMPLE.COM"
        );
        assert_eq!(
            k.principal_for("[::1]:16020", false),
            "hbase/::1@EXAMPLE.COM"
        );
        let k = k.master_principal("hmaster/_HOST");
        assert_eq!(k.principal_for("m:16000", true), "hmaster/m");
        assert_eq!(k.principal_for("m:16020", false), "hbase/m@EXAMPLE.COM");
    }

    #[test]
    fn levels_order_weakest_first() {
        assert!(Protection::Authentication < Protection::Integrity);
        assert!(Protection::Integrity < Protection::Privacy);
    }
}
