//! Decimal to `f64`, correctly rounded (to nearest, ties to even), for the
//! input parser: what `str::parse::<f64>` and serde_json (with
//! `float_roundtrip`) give, without either one's tables in the component.
//!
//! Most numbers in errors take the exact fast path: at most 2^53 as an
//! integer times or over a power of ten up to 10^22, all exact in `f64`, so
//! one rounding. Anything else is divided out in big integers: slow, but
//! rare, short (a number past 800 significant digits is cut there with a
//! sticky bit, which cannot move a rounding: a halfway point between two
//! `f64`s has at most 767), and bounded (magnitudes past `f64`'s range are
//! decided before any arithmetic). Tested against `str::parse::<f64>` in
//! `tests/properties.rs`.

/// Significant digits kept; see the module documentation.
const MAX_DIGITS: usize = 800;

/// The value of the integer written by the ASCII digits of `int` and then
/// `frac` (the two parts of a number, read as one) times 10^`exp`, correctly
/// rounded; infinite past `f64::MAX`.
pub(crate) fn decimal_to_f64(int: &[u8], frac: &[u8], exp: i64) -> f64 {
    let all = || int.iter().chain(frac).copied();
    let leading = all().take_while(|&d| d == b'0').count();
    let trailing = all().rev().take_while(|&d| d == b'0').count();
    let total = int.len() + frac.len();
    if leading == total {
        return 0.0;
    }
    let count = total - leading - trailing;
    // The value is 0.d1d2... times 10^magnitude (`exp` counts from the
    // last digit).
    let magnitude = exp + (total - leading) as i64;
    // Past these the result is decided: 10^309 overflows, and below
    // 10^-325 is less than half the smallest subnormal.
    if magnitude > 310 {
        return f64::INFINITY;
    }
    if magnitude < -324 {
        return 0.0;
    }
    let mut digits = all().skip(leading).take(count.min(MAX_DIGITS));
    let truncated = count > MAX_DIGITS;
    let kept = count.min(MAX_DIGITS);
    // Now value = digits (an integer) times 10^e10.
    let e10 = magnitude - kept as i64;
    if kept <= 15 && (-22..=22).contains(&e10) {
        let w = digits.fold(0u64, |w, d| w * 10 + u64::from(d - b'0')) as f64;
        let p = (0..e10.unsigned_abs()).fold(1.0, |p, _| p * 10.0);
        return if e10 < 0 { w / p } else { w * p };
    }
    let mut n = Big::default();
    for d in digits.by_ref() {
        n.mul_add(10, u32::from(d - b'0'));
    }
    let mut d = Big::from(1);
    // value = n / d * 2^e2
    let mut e2 = e10;
    let fives = if e10 >= 0 { &mut n } else { &mut d };
    for _ in 0..e10.unsigned_abs() {
        fives.mul_add(5, 0);
    }
    // Scale so that the quotient has 63 or 64 bits.
    let shift = 63 - (n.bits() as i64 - d.bits() as i64);
    if shift >= 0 {
        n.shl(shift as usize);
    } else {
        d.shl(shift.unsigned_abs() as usize);
    }
    e2 -= shift;
    let mut q = 0u64;
    d.shl(63);
    for _ in 0..64 {
        q <<= 1;
        if n.sub_if_at_least(&d) {
            q |= 1;
        }
        d.shr1();
    }
    round(q, e2, truncated || !n.is_zero())
}

/// `q` times 2^`e2`, with a `sticky` bit for anything below `q`'s last bit,
/// rounded to the nearest `f64`. `q` has at least 55 bits.
fn round(q: u64, e2: i64, sticky: bool) -> f64 {
    let bits = 64 - i64::from(q.leading_zeros());
    // The exponent of the result's last bit: 52 below the leading one for a
    // normal number, fixed for a subnormal.
    let last = (e2 + bits - 1 - 52).max(-1074);
    let shift = last - e2;
    if shift > 64 {
        return 0.0;
    }
    let q = u128::from(q);
    let mut m = q >> shift;
    let rest = q & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rest > half || (rest == half && (sticky || m & 1 == 1)) {
        m += 1;
    }
    let mut last = last;
    if m == 1 << 53 {
        m >>= 1;
        last += 1;
    }
    if m < 1 << 52 {
        // Subnormal (or zero): `last` is -1074, the exponent field 0.
        return f64::from_bits(m as u64);
    }
    let biased = last + 52 + 1023;
    if biased > 2046 {
        return f64::INFINITY;
    }
    f64::from_bits(((biased as u64) << 52) | (m as u64 & ((1 << 52) - 1)))
}

/// An unsigned big integer, 32-bit limbs, least significant first.
#[derive(Default)]
struct Big(Vec<u32>);

impl From<u32> for Big {
    fn from(v: u32) -> Self {
        Big(vec![v])
    }
}

impl Big {
    fn mul_add(&mut self, mul: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(mul) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn bits(&self) -> usize {
        let top = self.0.iter().rposition(|&l| l != 0);
        top.map_or(0, |i| i * 32 + 32 - self.0[i].leading_zeros() as usize)
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn shl(&mut self, n: usize) {
        let (limbs, bits) = (n / 32, n % 32);
        if bits > 0 {
            self.0.push(0);
            for i in (0..self.0.len()).rev() {
                let low = if i > 0 {
                    self.0[i - 1] >> (32 - bits)
                } else {
                    0
                };
                self.0[i] = (self.0[i] << bits) | low;
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    fn shr1(&mut self) {
        let mut carry = 0;
        for limb in self.0.iter_mut().rev() {
            let next = *limb << 31;
            *limb = (*limb >> 1) | carry;
            carry = next;
        }
    }

    /// Subtract `other` if it is not greater; whether it was.
    fn sub_if_at_least(&mut self, other: &Big) -> bool {
        let len = self.0.len().max(other.0.len());
        let limb = |b: &Big, i: usize| b.0.get(i).copied().unwrap_or(0);
        for i in (0..len).rev() {
            let (a, b) = (limb(self, i), limb(other, i));
            if a != b {
                if a < b {
                    return false;
                }
                break;
            }
        }
        self.0.resize(len, 0);
        let mut borrow = false;
        for (i, a) in self.0.iter_mut().enumerate() {
            let (v, b1) = a.overflowing_sub(limb(other, i));
            let (v, b2) = v.overflowing_sub(u32::from(borrow));
            *a = v;
            borrow = b1 || b2;
        }
        true
    }
}
