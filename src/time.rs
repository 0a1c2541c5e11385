//! The little time arithmetic the core needs, with no clock of its own:
//! RFC 3339 timestamps from the host, HTTP-dates from `Retry-After`.

/// Days since 1970-01-01 for a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// ASCII digits only, as a number (`None` past `u32`).
fn num(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    s.bytes().try_fold(0u32, |n, b| {
        let digit = b.checked_sub(b'0').filter(|d| *d <= 9)?;
        n.checked_mul(10)?.checked_add(u32::from(digit))
    })
}

/// The days of a month of the proleptic Gregorian calendar.
fn days_in_month(y: i64, mo: u32) -> u32 {
    match mo {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A date and time that exist: a month of 1 to 12, a day the month has
/// (29 February only in a leap year), hours below 24, minutes below 60 and
/// seconds up to 60 (a leap second, as RFC 3339 and HTTP-dates allow).
fn valid(y: i64, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> bool {
    y > 0
        && (1..=12).contains(&mo)
        && d >= 1
        && d <= days_in_month(y, mo)
        && h < 24
        && mi < 60
        && s <= 60
}

/// Parse an RFC 3339 timestamp (`2025-10-27T14:32:15Z`, fractional seconds and
/// offsets allowed) into milliseconds since the Unix epoch.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let y = num(s.get(0..4)?)? as i64;
    let mo = num(s.get(5..7)?)?;
    let d = num(s.get(8..10)?)?;
    let h = num(s.get(11..13)?)?;
    let mi = num(s.get(14..16)?)?;
    let sec = num(s.get(17..19)?)?;
    if !valid(y, mo, d, h, mi, sec) {
        return None;
    }
    let mut rest = s.get(19..)?;
    let mut millis = 0i64;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        // The first three digits, padded with zeros: milliseconds.
        millis = frac.as_bytes()[..3.min(digits)]
            .iter()
            .chain(b"000")
            .take(3)
            .fold(0, |ms, d| ms * 10 + i64::from(d - b'0'));
        rest = &frac[digits..];
    }
    let offset_min: i64 = match rest {
        "Z" | "z" => 0,
        _ => {
            let rb = rest.as_bytes();
            if rb.len() != 6 || !matches!(rb[0], b'+' | b'-') || rb[3] != b':' {
                return None;
            }
            let oh = num(&rest[1..3])? as i64;
            let om = num(&rest[4..6])? as i64;
            // RFC 3339: an offset's hours are 00 to 23, its minutes 00 to 59.
            if oh > 23 || om > 59 {
                return None;
            }
            let sign = if rb[0] == b'-' { -1 } else { 1 };
            sign * (oh * 60 + om)
        }
    };
    let days = days_from_civil(y, mo, d);
    let secs = days * 86_400 + (h as i64) * 3600 + (mi as i64) * 60 + sec as i64 - offset_min * 60;
    Some(secs * 1000 + millis)
}

/// Format milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (whole seconds).
pub fn format_rfc3339_seconds(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let (h, mi, sec) = (rem / 3600, (rem % 3600) / 60, rem % 60);
    if !(0..=9999).contains(&y) {
        return format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{sec:02}Z");
    }
    // Years 0–9999 without the formatting machinery: the digits written
    // into the template, two at a time.
    let mut b = *b"0000-00-00T00:00:00Z";
    let mut two = |at: usize, n: u32| {
        b[at] = b'0' + (n / 10 % 10) as u8;
        b[at + 1] = b'0' + (n % 10) as u8;
    };
    let y = y as u32;
    two(0, y / 100);
    two(2, y % 100);
    two(5, m);
    two(8, d);
    two(11, h as u32);
    two(14, mi as u32);
    two(17, sec as u32);
    // ASCII throughout, so always valid UTF-8.
    std::str::from_utf8(&b)
        .map(String::from)
        .unwrap_or_default()
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Parse an HTTP-date (IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850
/// `Sunday, 06-Nov-94 08:49:37 GMT`, or asctime `Sun Nov  6 08:49:37 1994`)
/// into milliseconds since the epoch.
pub fn parse_http_date(s: &str) -> Option<i64> {
    let s = s.trim();
    let parts: Vec<&str> = s.split_whitespace().collect();
    let (y, mo, d, hms) = match parts.as_slice() {
        // IMF-fixdate
        [wd, day, mon, year, hms, "GMT"] if weekday(wd.strip_suffix(',')?, false) => {
            (num(year)? as i64, month(mon)?, num(day)?, *hms)
        }
        // RFC 850
        [wd, dmy, hms, "GMT"] if weekday(wd.strip_suffix(',')?, true) => {
            let mut it = dmy.split('-');
            let d = num(it.next()?)?;
            let mo = month(it.next()?)?;
            let yy = num(it.next()?)? as i64;
            let y = if yy < 70 {
                2000 + yy
            } else if yy < 100 {
                1900 + yy
            } else {
                yy
            };
            (y, mo, d, *hms)
        }
        // asctime
        [wd, mon, day, hms, year] if weekday(wd, false) => {
            (num(year)? as i64, month(mon)?, num(day)?, *hms)
        }
        _ => return None,
    };
    let mut t = hms.split(':');
    let h = num(t.next()?)?;
    let mi = num(t.next()?)?;
    let sec = num(t.next()?)?;
    if t.next().is_some() || !valid(y, mo, d, h, mi, sec) {
        return None;
    }
    let days = days_from_civil(y, mo, d);
    Some((days * 86_400 + (h as i64) * 3600 + (mi as i64) * 60 + sec as i64) * 1000)
}

/// A day's name as HTTP-dates write it: `Sun` (IMF-fixdate, asctime) or
/// `Sunday` (RFC 850). Whether it is the right day is not checked: senders
/// get it wrong more often than the date.
fn weekday(s: &str, long: bool) -> bool {
    const DAYS: [&str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    DAYS.iter().any(|d| {
        if long {
            d.eq_ignore_ascii_case(s)
        } else {
            d[..3].eq_ignore_ascii_case(s)
        }
    })
}

fn month(s: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|m| m.eq_ignore_ascii_case(s))
        .map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_round_trip() {
        let ms = parse_rfc3339("2025-10-27T14:32:15Z").unwrap();
        assert_eq!(ms, 1_761_575_535_000);
        assert_eq!(format_rfc3339_seconds(ms), "2025-10-27T14:32:15Z");
        assert_eq!(parse_rfc3339("2025-10-27T16:32:15.5+02:00"), Some(ms + 500));
        assert_eq!(parse_rfc3339("2025-13-27T14:32:15Z"), None);
        assert_eq!(parse_rfc3339("yesterday"), None);
        // Fractions: the first three digits, padded.
        for (frac, add) in [(".05", 50), (".123456", 123), (".9", 900), (".000", 0)] {
            let t = format!("2025-10-27T14:32:15{frac}Z");
            assert_eq!(parse_rfc3339(&t), Some(ms + add), "{t}");
        }
        for bad in [
            "2025-10-27T14:32:15.Z",
            "2025-10-27T14:32:+5Z",
            "2025-10-27T14:3٢:15Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    /// `num` is "all ASCII digits, then `str::parse`".
    #[test]
    fn numbers_are_digits_only() {
        for s in [
            "",
            "0",
            "07",
            "+1",
            "-1",
            "1a",
            "٣",
            "4294967295",
            "4294967296",
            "99999999999",
        ] {
            let parsed = (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().ok())
                .flatten();
            assert_eq!(num(s), parsed, "{s:?}");
        }
    }

    /// The hand-written digits agree with the formatting machinery, and
    /// formatting then parsing gives the same second, across all years.
    #[test]
    fn formatting_matches_format_and_round_trips() {
        let mut ms: i64 = -62_167_219_200_000 - 86_400_000; // 0000-01-01 and a day before
        let step = 86_400_000 * 367 + 3_723_456; // a year, a day, 1h 2m 3.456s
        while ms < 253_402_300_800_000 + 86_400_000 * 400 {
            let text = format_rfc3339_seconds(ms);
            let secs = ms.div_euclid(1000);
            let rem = secs.rem_euclid(86_400);
            let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
            let (h, mi, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
            assert_eq!(text, format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"));
            if (0..=9999).contains(&y) {
                assert_eq!(parse_rfc3339(&text), Some(secs * 1000), "{text}");
            }
            ms += step;
        }
    }

    #[test]
    fn http_dates() {
        let a = parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(a, 784_111_777_000);
        assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), Some(a));
        assert_eq!(parse_http_date("Sun Nov  6 08:49:37 1994"), Some(a));
        assert_eq!(parse_http_date("soon"), None);
    }

    /// Impossible dates, times and offsets are refused; real ones, the
    /// 29th of February of a leap year and a leap second included, are not.
    #[test]
    fn impossible_dates_are_refused() {
        for bad in [
            "2025-02-29T00:00:00Z",
            "2025-02-31T00:00:00Z",
            "2025-04-31T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2025-00-10T00:00:00Z",
            "2025-10-00T00:00:00Z",
            "2025-10-27T24:00:00Z",
            "2025-10-27T23:60:00Z",
            "2025-10-27T23:59:61Z",
            "2025-10-27T14:32:15+99:99",
            "2025-10-27T14:32:15+24:00",
            "2025-10-27T14:32:15-05:60",
            "0000-01-01T00:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
        for good in [
            "2024-02-29T00:00:00Z",
            "2000-02-29T12:00:00Z",
            "2025-04-30T23:59:59Z",
            "2016-12-31T23:59:60Z",
            "2025-10-27T14:32:15+23:59",
            "2025-10-27T14:32:15-00:00",
        ] {
            assert!(parse_rfc3339(good).is_some(), "{good}");
        }
        for bad in [
            "Mon, 31 Feb 2025 00:00:10 GMT",
            "Tue, 29 Feb 2025 00:00:10 GMT",
            "Thu, 31 Apr 2025 00:00:10 GMT",
            "Mon, 27 Oct 2025 24:00:00 GMT",
            "Xyz, 27 Oct 2025 10:00:00 GMT",
            "Monday, 31-Feb-25 00:00:10 GMT",
            "Mon Feb 31 00:00:10 2025",
            "27 Oct 2025 10:00:00 GMT",
        ] {
            assert_eq!(parse_http_date(bad), None, "{bad}");
        }
        assert!(parse_http_date("Thu, 29 Feb 2024 00:00:10 GMT").is_some());
    }
}
