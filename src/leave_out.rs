//! Leave-one-provider-out evaluation: knowledge tagged for a provider can be
//! turned off while that provider's cases are scored (`cargo xtask eval`).
//!
//! Every shipped rule names the providers it knows (`providers` in
//! `rules/*.json`, by default its file's tag), and so do the provider tables
//! still written in `signals.rs`. A provider slug (`aws-dynamodb`) leaves out
//! every tag equal to it or to one of its hyphen prefixes (`aws`). Only the
//! `leave-out` feature, which the evaluation turns on, compiles the switch
//! and the tables' provider tags; without it nothing is ever left out, and
//! the tags are not in the build.

#[cfg(feature = "leave-out")]
std::thread_local! {
    static OUT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Run `f` with every rule tagged for `provider` (or a hyphen prefix of it)
/// turned off, on this thread.
#[cfg(feature = "leave-out")]
pub fn without<T>(provider: &str, f: impl FnOnce() -> T) -> T {
    OUT.with(|o| *o.borrow_mut() = provider.to_ascii_lowercase());
    let out = f();
    OUT.with(|o| o.borrow_mut().clear());
    out
}

/// Whether knowledge tagged with any of `tags` (space-separated) is turned off.
#[cfg(feature = "leave-out")]
pub(crate) fn off(tags: &str) -> bool {
    OUT.with(|o| {
        let provider = o.borrow();
        !provider.is_empty() && tags.split(' ').any(|t| covers(&provider, t))
    })
}

/// `tag` is `provider` or one of its hyphen prefixes (`aws` of `aws-s3`).
#[cfg_attr(not(feature = "leave-out"), allow(dead_code))]
fn covers(provider: &str, tag: &str) -> bool {
    !tag.is_empty()
        && provider.starts_with(tag)
        && (provider.len() == tag.len() || provider.as_bytes()[tag.len()] == b'-')
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_tag_covers_its_provider_and_the_provider_s_family() {
        assert!(super::covers("aws-s3", "aws"));
        assert!(super::covers("aws-s3", "aws-s3"));
        assert!(!super::covers("aws-s3", "aws-s"));
        assert!(!super::covers("awsome", "aws"));
        assert!(!super::covers("aws", "aws-s3"));
        assert!(!super::covers("aws", ""));
    }
}
