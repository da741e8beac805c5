//! [`Login`]: the client's Kerberos credentials, from the ticket cache or
//! from a keytab. Every call into MIT Kerberos here may talk to the KDC, so
//! callers run it on a blocking thread.

use super::Kerberos;
use libgssapi::credential::{Cred, CredUsage};
use libgssapi::error::Error as GssError;
use std::ffi::CString;
use std::path::Path;
use std::sync::Arc;

/// Where a connection's credentials come from.
#[derive(Clone)]
pub(crate) enum Login {
    /// The default credential cache, read again for each connection: a
    /// user who runs `kinit` again is seen at the next connection.
    TicketCache,
    /// A keytab login, shared by every connection of a client. Its tickets
    /// live in a credential cache in memory of the client's own. Each new
    /// connection acquires its credentials again, and MIT Kerberos gets a
    /// new ticket from the keytab when the cached one is past half its
    /// life (its "client keytab" initiation; a credential once acquired is
    /// never refreshed): the re-login Java's
    /// `UserGroupInformation.checkTGTAndReloginFromKeytab` does by hand.
    Keytab(Arc<KeytabLogin>),
}

/// A keytab login's principal and where its keys and tickets are.
pub(crate) struct KeytabLogin {
    principal: String,
    name: CString,
    keytab: CString,
    ccache: CString,
    path: std::path::PathBuf,
}

impl KeytabLogin {
    fn acquire(&self) -> Result<Cred, String> {
        let login = |e: &GssError| {
            format!(
                "cannot log in as {} from the keytab {}: {}",
                self.principal,
                self.path.display(),
                explain(e, None, Some(&self.principal))
            )
        };
        let cred =
            ffi::acquire_from(&self.name, &self.keytab, &self.ccache).map_err(|e| login(&e))?;
        cred.lifetime().map_err(|e| login(&e))?;
        Ok(cred)
    }
}

impl Login {
    /// Logs in as `kerberos` says: checks the keytab now (a keytab without
    /// the principal fails here, not at the first call).
    pub(crate) fn new(kerberos: &Kerberos) -> Result<Login, String> {
        match &kerberos.keytab {
            None => Ok(Login::TicketCache),
            Some((principal, path)) => {
                let login = keytab_login(principal, path)?;
                login.acquire()?;
                Ok(Login::Keytab(Arc::new(login)))
            }
        }
    }

    /// The principal of a keytab login.
    pub(crate) fn keytab_principal(&self) -> Option<&str> {
        match self {
            Login::Keytab(login) => Some(&login.principal),
            Login::TicketCache => None,
        }
    }

    /// The credentials for a new connection.
    pub(crate) fn cred(&self) -> Result<Cred, String> {
        match self {
            Login::Keytab(login) => login.acquire(),
            Login::TicketCache => {
                let cred = Cred::acquire(None, None, CredUsage::Initiate, None)
                    .map_err(|e| explain(&e, None, None))?;
                // An expired ticket still makes a credential; its lifetime is 0.
                if cred.lifetime().is_ok_and(|t| t.is_zero()) {
                    return Err(format!(
                        "the Kerberos ticket in the credential cache has expired: run `kinit` \
                         again (or log in from a keytab: Kerberos::keytab){}",
                        cache_name()
                    ));
                }
                Ok(cred)
            }
        }
    }
}

/// The ticket cache MIT Kerberos reads, for errors.
fn cache_name() -> String {
    std::env::var("KRB5CCNAME")
        .map(|c| format!(" (KRB5CCNAME={c})"))
        .unwrap_or_default()
}

/// How [`explain`] starts when no KDC answered.
pub(crate) const NO_KDC: &str = "no KDC answered";

/// MIT Kerberos's words for `e`, and what to do about it. `service`: the
/// server's principal, when the error came while asking for a ticket to
/// it; `keytab`: the client's keytab login, when it came from one.
pub(crate) fn explain(e: &GssError, service: Option<&str>, keytab: Option<&str>) -> String {
    let text = e.to_string();
    let lower = text.to_ascii_lowercase();
    let hint = if lower.contains("cannot contact any kdc") || lower.contains("cannot find kdc") {
        format!(
            "{NO_KDC}: check that it runs and the [realms] section of krb5.conf \
             (KRB5_CONFIG)"
        )
        .to_owned()
    } else if lower.contains("clock skew") {
        "this machine's clock and the KDC's or the server's differ by more than Kerberos \
         allows: synchronise the clocks (NTP)"
            .to_owned()
    } else if lower.contains("not found in kerberos database") {
        match (service, keytab) {
            (Some(p), _) => format!(
                "the KDC does not know the principal {p}: set Kerberos::service_principal to \
                 the servers' (hbase.regionserver.kerberos.principal, such as \
                 hbase/_HOST@REALM)"
            ),
            (None, Some(p)) => format!("the KDC does not know the principal {p}"),
            (None, None) => {
                "the KDC does not know a principal: check the names and the realm".to_owned()
            }
        }
    } else if let Some(p) = keytab {
        format!(
            "the keytab has no usable key for {p}: check the principal and the keytab \
             (`klist -kt KEYTAB`)"
        )
    } else if lower.contains("expired") {
        "the Kerberos ticket has expired: run `kinit` again, or log in from a keytab \
         (Kerberos::keytab), whose tickets are renewed"
            .to_owned()
    } else if lower.contains("no kerberos credentials")
        || lower.contains("no credentials cache found")
        || lower.contains("no credentials were supplied")
    {
        "no Kerberos ticket: run `kinit` first, or log in from a keytab (Kerberos::keytab)"
            .to_owned()
    } else {
        return format!("Kerberos failed: {}", text.trim());
    };
    format!("{hint} (Kerberos said: {})", text.trim())
}

/// A login as `principal` from the keytab at `path`, with a memory
/// credential cache of its own.
fn keytab_login(principal: &str, path: &Path) -> Result<KeytabLogin, String> {
    if !path.is_file() {
        return Err(format!(
            "the keytab {} does not exist or is not a file",
            path.display()
        ));
    }
    let keytab = CString::new(format!("FILE:{}", path.display()))
        .map_err(|_| "a keytab path with a NUL byte".to_owned())?;
    // One cache for a principal and keytab, whichever client logs in
    // with them: a process that makes clients again and again keeps one
    // set of tickets, not one a client (a memory cache lives as long as
    // the process).
    let ccache = CString::new(format!(
        "MEMORY:hbase-native-{:016x}",
        fnv1a(format!("{principal}\0{}", path.display()).as_bytes())
    ))
    .expect("no NUL");
    let name = CString::new(principal).map_err(|_| "a principal with a NUL byte".to_owned())?;
    Ok(KeytabLogin {
        principal: principal.to_owned(),
        name,
        keytab,
        ccache,
        path: path.to_owned(),
    })
}

/// FNV-1a, 64 bits: a stable name for a cache.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

mod ffi {
    //! `gss_acquire_cred_from`, which libgssapi does not wrap: credentials
    //! from a given keytab and credential cache, not the process's
    //! defaults (`KRB5_CLIENT_KTNAME` would be global to the process).
    use libgssapi::credential::Cred;
    use libgssapi::error::{Error, MajorFlags};
    use libgssapi_sys as sys;
    use std::ffi::CStr;
    use std::ptr;

    /// `GSS_KRB5_NT_PRINCIPAL_NAME`, 1.2.840.113554.1.2.2.1.
    const KRB5_PRINCIPAL_NAME: [u8; 10] = *b"\x2a\x86\x48\x86\xf7\x12\x01\x02\x02\x01";

    fn check(major: u32, minor: u32) -> Result<(), Error> {
        if major == 0 {
            Ok(())
        } else {
            Err(Error {
                major: MajorFlags::from_bits_retain(major),
                minor,
            })
        }
    }

    pub(super) fn acquire_from(
        principal: &CStr,
        keytab: &CStr,
        ccache: &CStr,
    ) -> Result<Cred, Error> {
        let mut oid = KRB5_PRINCIPAL_NAME;
        let mut name_type = sys::gss_OID_desc {
            length: oid.len() as u32,
            elements: oid.as_mut_ptr().cast(),
        };
        let bytes = principal.to_bytes();
        let mut buffer = sys::gss_buffer_desc {
            length: bytes.len(),
            value: bytes.as_ptr() as *mut _,
        };
        let mut minor = 0;
        let mut name: sys::gss_name_t = ptr::null_mut();
        // SAFETY: every pointer is to a live local or to `principal`'s
        // bytes, which the call copies; `name` is released below.
        let major =
            unsafe { sys::gss_import_name(&mut minor, &mut buffer, &mut name_type, &mut name) };
        check(major, minor)?;
        let mut elements = [
            sys::gss_key_value_element_desc {
                key: c"client_keytab".as_ptr(),
                value: keytab.as_ptr(),
            },
            sys::gss_key_value_element_desc {
                key: c"ccache".as_ptr(),
                value: ccache.as_ptr(),
            },
        ];
        let store = sys::gss_key_value_set_desc {
            count: elements.len() as u32,
            elements: elements.as_mut_ptr(),
        };
        let mut cred: sys::gss_cred_id_t = ptr::null_mut();
        // SAFETY: `name` was imported above; the store's strings outlive
        // the call, which copies what it keeps; `cred` becomes a `Cred`,
        // which releases it.
        let major = unsafe {
            sys::gss_acquire_cred_from(
                &mut minor,
                name,
                sys::_GSS_C_INDEFINITE,
                ptr::null_mut(),
                sys::GSS_C_INITIATE as sys::gss_cred_usage_t,
                &store,
                &mut cred,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        let mut release_minor = 0;
        // SAFETY: `name` is the name imported above, released once.
        unsafe { sys::gss_release_name(&mut release_minor, &mut name) };
        check(major, minor)?;
        Ok(Cred::from(cred))
    }
}
