//! [`Options`]: timeouts, retries, the user name, and a test hook that
//! maps servers' addresses.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Maps a server's `host:port`, as `hbase:meta` and ZooKeeper name it,
/// to the address to connect to (a test's fault proxy, a tunnel).
pub type AddressMap = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// How a [`Client`](crate::Client) connects, waits and retries.
///
/// ```
/// use hbase_native::Options;
/// use std::time::Duration;
/// let o = Options::default().attempts(20).call_timeout(Duration::from_secs(5));
/// assert_eq!(o.attempts, 20);
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct Options {
    /// How long opening a connection (or reading ZooKeeper) may take.
    pub connect_timeout: Duration,
    /// How long one call may wait for its answer.
    pub call_timeout: Duration,
    /// Tries of a call that failed in a way worth retrying (a moved or
    /// opening region, a lost connection); 1: no retry.
    pub attempts: u32,
    /// The pause before the first retry; doubled each retry up to
    /// `max_backoff`.
    pub initial_backoff: Duration,
    /// The longest pause between retries.
    pub max_backoff: Duration,
    /// The most time one operation (a read to its last row, a write, an
    /// atomic call) may take, its tries and pauses included; `None`: only
    /// `attempts` bound it. No try starts past it and no call waits
    /// beyond it: the operation fails with
    /// [`Error::OperationTimedOut`](crate::Error::OperationTimedOut).
    pub operation_timeout: Option<Duration>,
    /// The user HBase sees (SIMPLE authentication): `$USER`, else `hbase-native`.
    pub user: String,
    /// Threads of the client's own runtime, which runs its connections.
    pub threads: usize,
    /// Where to connect for a server's address; `None`: the address itself.
    pub address_map: Option<AddressMap>,
    /// A delegation token to authenticate with
    /// ([`Client::authentication_token`](crate::Client::authentication_token)
    /// made it); before [`Options::kerberos`] when both are set.
    pub token: Option<crate::Token>,
    /// TLS to the servers (HBase 2.6's `hbase.server.netty.tls.enabled`);
    /// `None`: plaintext.
    #[cfg(feature = "tls")]
    pub tls: Option<crate::Tls>,
    /// Kerberos for a secure cluster (`hbase.security.authentication=kerberos`);
    /// `None`: SIMPLE authentication as `user`.
    #[cfg(feature = "kerberos")]
    pub kerberos: Option<crate::Kerberos>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            connect_timeout: Duration::from_secs(10),
            call_timeout: Duration::from_secs(30),
            attempts: 10,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(2),
            operation_timeout: None,
            user: std::env::var("USER").unwrap_or_else(|_| "hbase-native".into()),
            threads: 1,
            address_map: None,
            token: None,
            #[cfg(feature = "tls")]
            tls: None,
            #[cfg(feature = "kerberos")]
            kerberos: None,
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut f = f.debug_struct("Options");
        f.field("connect_timeout", &self.connect_timeout)
            .field("call_timeout", &self.call_timeout)
            .field("attempts", &self.attempts)
            .field("initial_backoff", &self.initial_backoff)
            .field("max_backoff", &self.max_backoff)
            .field("operation_timeout", &self.operation_timeout)
            .field("user", &self.user)
            .field("threads", &self.threads)
            .field("address_map", &self.address_map.as_ref().map(|_| "fn"))
            .field("token", &self.token);
        #[cfg(feature = "tls")]
        f.field("tls", &self.tls);
        #[cfg(feature = "kerberos")]
        f.field("kerberos", &self.kerberos);
        f.finish()
    }
}

/// How one call retries and waits: a [`Client`](crate::Client)'s, set by
/// [`Options`] and changed per client handle with
/// [`Client::with_policy`](crate::Client::with_policy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct CallPolicy {
    /// See [`Options::attempts`].
    pub attempts: u32,
    /// See [`Options::initial_backoff`].
    pub initial_backoff: Duration,
    /// See [`Options::max_backoff`].
    pub max_backoff: Duration,
    /// See [`Options::call_timeout`].
    pub call_timeout: Duration,
    /// See [`Options::operation_timeout`].
    pub operation_timeout: Option<Duration>,
    /// When the operation under way must end: set as it starts.
    pub(crate) deadline: Option<std::time::Instant>,
}

impl CallPolicy {
    /// The pause before retry `retry` (1 is the first).
    pub fn backoff(&self, retry: u32) -> Duration {
        let doublings = retry.saturating_sub(1).min(31);
        self.initial_backoff
            .saturating_mul(1u32 << doublings)
            .min(self.max_backoff)
    }

    /// A policy of `attempts` tries (0 is taken as 1), pauses from
    /// `initial` doubling up to `max`, each call waiting at most `timeout`.
    pub fn new(attempts: u32, initial: Duration, max: Duration, timeout: Duration) -> Self {
        CallPolicy {
            attempts: attempts.max(1),
            initial_backoff: initial,
            max_backoff: max.max(initial),
            call_timeout: timeout,
            operation_timeout: None,
            deadline: None,
        }
    }

    /// The same policy with each operation given at most `timeout` in all
    /// (see [`Options::operation_timeout`]).
    pub fn with_operation_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.operation_timeout = timeout;
        self
    }
}

impl Options {
    /// The retry and timeout part of the options.
    pub fn policy(&self) -> CallPolicy {
        CallPolicy::new(
            self.attempts,
            self.initial_backoff,
            self.max_backoff,
            self.call_timeout,
        )
        .with_operation_timeout(self.operation_timeout)
    }

    /// The same options with `n` tries (0 is taken as 1).
    pub fn attempts(mut self, n: u32) -> Self {
        self.attempts = n.max(1);
        self
    }

    /// The same options with pauses from `initial` doubling up to `max`.
    pub fn backoff_between(mut self, initial: Duration, max: Duration) -> Self {
        self.initial_backoff = initial;
        self.max_backoff = max.max(initial);
        self
    }

    /// The same options giving each operation at most `timeout` in all.
    pub fn operation_timeout(mut self, timeout: Duration) -> Self {
        self.operation_timeout = Some(timeout);
        self
    }

    /// The same options waiting at most `timeout` for a call's answer.
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// The same options waiting at most `timeout` for a connection.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The same options logging in to a Kerberized cluster as `kerberos`
    /// says (the default: the ticket `kinit` left).
    #[cfg(feature = "kerberos")]
    pub fn kerberos(mut self, kerberos: crate::Kerberos) -> Self {
        self.kerberos = Some(kerberos);
        self
    }

    /// The same options speaking TLS to every server as `tls` says.
    #[cfg(feature = "tls")]
    pub fn tls(mut self, tls: crate::Tls) -> Self {
        self.tls = Some(tls);
        self
    }

    /// The same options authenticating with a delegation token (SASL
    /// DIGEST-MD5): a process that holds no Kerberos credentials, given a
    /// token a Kerberos client got
    /// ([`Client::authentication_token`](crate::Client::authentication_token)).
    /// Tokens work at `hbase.rpc.protection=authentication`.
    pub fn token(mut self, token: crate::Token) -> Self {
        self.token = Some(token);
        self
    }

    /// The same options connecting where `map` says for each server.
    pub fn address_map(mut self, map: impl Fn(&str) -> String + Send + Sync + 'static) -> Self {
        self.address_map = Some(Arc::new(map));
        self
    }
}
