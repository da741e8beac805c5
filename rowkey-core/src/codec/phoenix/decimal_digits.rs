//! [`DecimalDigits`]: a decimal as its significant base-10 digits and
//! where its point is, the middle every decimal type (`rust_decimal`, a
//! layout's decimal text, Java's `BigDecimal` text) goes through on its
//! way to Phoenix's `DECIMAL` bytes.

use super::decimal::MAX_DECIMAL_DIGITS;

/// A decimal as Phoenix normalises one: a sign, its significant base-10
/// digits (no leading or trailing zero; none for 0) and where the decimal
/// point is: `point` digits before it (`12.5`: digits `125`, point 2;
/// `0.001`: digits `1`, point -2; `100`: digits `1`, point 3). Held on the
/// stack: a key with a `DECIMAL` encodes without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecimalDigits {
    /// Below zero.
    pub negative: bool,
    pub(super) digits: [u8; MAX_DECIMAL_DIGITS],
    pub(super) len: usize,
    /// Digits before the decimal point (negative: zeros after it first).
    pub point: i32,
}

impl DecimalDigits {
    /// Zero.
    pub const fn zero() -> Self {
        DecimalDigits {
            negative: false,
            digits: [0; MAX_DECIMAL_DIGITS],
            len: 0,
            point: 0,
        }
    }

    /// The digits of `mantissa * 10^-scale`, normalised (trailing zeros
    /// dropped); `None` past [`MAX_DECIMAL_DIGITS`] significant digits.
    pub fn from_scaled(negative: bool, mut mantissa: u128, scale: i32) -> Option<Self> {
        if mantissa == 0 {
            return Some(DecimalDigits::zero());
        }
        let mut scale = scale;
        while mantissa.is_multiple_of(10) {
            mantissa /= 10;
            scale = scale.checked_sub(1)?;
        }
        let mut rev = [0u8; 40];
        let mut n = 0;
        while mantissa > 0 {
            rev[n] = (mantissa % 10) as u8;
            mantissa /= 10;
            n += 1;
        }
        if n > MAX_DECIMAL_DIGITS {
            return None;
        }
        let mut digits = [0u8; MAX_DECIMAL_DIGITS];
        for i in 0..n {
            digits[i] = rev[n - 1 - i];
        }
        Some(DecimalDigits {
            negative,
            digits,
            len: n,
            point: (n as i32).checked_sub(scale)?,
        })
    }

    /// The significant digits, most significant first (none for 0).
    pub fn digits(&self) -> &[u8] {
        &self.digits[..self.len]
    }

    /// Digits after the decimal point (0 for an integer).
    pub fn scale(&self) -> i32 {
        (self.len as i32 - self.point).max(0)
    }

    /// Digits before the decimal point (0 for a value below 1).
    pub fn integer_digits(&self) -> i32 {
        self.point.max(0)
    }

    /// The value as `mantissa * 10^-scale` with `scale >= 0`, if the
    /// mantissa fits in a `u128`.
    pub fn to_scaled(&self) -> Option<(bool, u128, u32)> {
        let mut m: u128 = 0;
        for &d in self.digits() {
            m = m.checked_mul(10)?.checked_add(u128::from(d))?;
        }
        // Zeros between the last digit and the point.
        for _ in 0..(self.point - self.len as i32).max(0) {
            m = m.checked_mul(10)?;
        }
        Some((self.negative && m != 0, m, self.scale() as u32))
    }
}

impl DecimalDigits {
    /// The decimal of `text`: an optional sign, digits with an optional
    /// `.`, and an optional exponent (`-12.50`, `1E+2`, `0.001`); `None`
    /// for anything else or past 38 significant digits.
    ///
    /// ```
    /// use rowkey::codec::phoenix::DecimalDigits;
    /// let d = DecimalDigits::parse("-12.50").unwrap();
    /// assert_eq!(d.to_string(), "-12.5");
    /// assert_eq!(DecimalDigits::parse("1E+2").unwrap().to_string(), "100");
    /// assert!(DecimalDigits::parse("1.2.3").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Self> {
        let (negative, rest) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exp) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], rest[i + 1..].parse::<i32>().ok()?),
            None => (rest, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        let mut digits = [0u8; MAX_DECIMAL_DIGITS];
        let mut len = 0;
        let mut point = 0i32;
        let mut seen = false;
        for (i, c) in int.bytes().chain(frac.bytes()).enumerate() {
            if !c.is_ascii_digit() {
                return None;
            }
            let d = c - b'0';
            let before_point = i < int.len();
            if !seen && d == 0 {
                // A leading zero: after the point it moves the point.
                if !before_point {
                    point -= 1;
                }
                continue;
            }
            if !seen {
                seen = true;
                point += if before_point {
                    (int.len() - i) as i32
                } else {
                    0
                };
            }
            if len == MAX_DECIMAL_DIGITS {
                // Only zeros may follow 38 significant digits.
                if d != 0 {
                    return None;
                }
                continue;
            }
            digits[len] = d;
            len += 1;
        }
        while len > 0 && digits[len - 1] == 0 {
            len -= 1;
        }
        if len == 0 {
            return Some(DecimalDigits::zero());
        }
        Some(DecimalDigits {
            negative,
            digits,
            len,
            point: point.checked_add(exp)?,
        })
    }
}

/// The decimal written out in full: `-12.5`, `100`, `0.001`.
impl core::fmt::Display for DecimalDigits {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.len == 0 {
            return f.write_str("0");
        }
        if self.negative {
            f.write_str("-")?;
        }
        let digit = |i: i32| -> char {
            usize::try_from(i)
                .ok()
                .and_then(|i| self.digits().get(i))
                .map_or('0', |d| char::from(b'0' + d))
        };
        if self.point <= 0 {
            f.write_str("0.")?;
            for _ in 0..-self.point {
                f.write_str("0")?;
            }
            for i in 0..self.len as i32 {
                write!(f, "{}", digit(i))?;
            }
            return Ok(());
        }
        for i in 0..self.point {
            write!(f, "{}", digit(i))?;
        }
        if (self.len as i32) > self.point {
            f.write_str(".")?;
            for i in self.point..self.len as i32 {
                write!(f, "{}", digit(i))?;
            }
        }
        Ok(())
    }
}
