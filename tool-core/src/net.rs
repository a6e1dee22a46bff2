//! Where a request the crate makes on someone else's behalf may go (the toolbox's `fetch`, an
//! A2A push notification): addresses on the public internet only, unless the program allows
//! more.

use core::time::Duration;
use std::net::{IpAddr, SocketAddr};

/// Whether `ip` is an address on the public internet: not loopback, private, link-local,
/// shared (carrier-grade NAT), unspecified, multicast, broadcast or for documentation.
pub(crate) fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_multicast()
                || v4.is_broadcast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 198 && (b == 18 || b == 19))
                || a >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let [first, second, ..] = v6.segments();
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || (first == 0x2001 && second == 0x0db8))
        }
    }
}

/// Why a host cannot be reached on someone's behalf: for good (`Refused`: it resolves to an
/// address that is not allowed), or for now (`Failed`: it does not resolve).
pub(crate) enum Unreachable {
    Refused(String),
    Failed(String),
}

/// A client for requests to `host` (on `port`) made on someone else's behalf: every address
/// the host resolves to checked (public only, unless `private` allows more), the connection
/// pinned to those addresses so a second lookup cannot move it, no proxy, no redirect
/// followed, each request bounded by `timeout`.
pub(crate) async fn pinned_client(
    host: &str,
    port: u16,
    private: bool,
    timeout: Duration,
) -> Result<reqwest::Client, Unreachable> {
    let found: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|error| Unreachable::Failed(format!("cannot resolve {host}: {error}")))?
        .collect();
    if found.is_empty() {
        return Err(Unreachable::Failed(format!("{host} has no address")));
    }
    if !private && let Some(refused) = found.iter().find(|address| !is_public(address.ip())) {
        return Err(Unreachable::Refused(format!(
            "{host} resolves to {}, a private, loopback or reserved address, which is not reached on a caller's behalf",
            refused.ip()
        )));
    }
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(timeout)
        .resolve_to_addrs(host, &found)
        .build()
        .map_err(|error| Unreachable::Failed(format!("cannot make the request: {error}")))
}
