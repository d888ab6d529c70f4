//! The least-squares fit of Table IV's overheads to a·y + b·z + c (the paper's form), by the
//! normal equations (3 × 3, solved by Cramer's rule).

use super::Overhead;

/// The fitted coefficients and how well they fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Cycles per code block.
    pub a: f64,
    /// Cycles per stack block.
    pub b: f64,
    /// Cycles of an invocation with no blocks.
    pub c: f64,
    /// The largest |measured − fitted| over the points.
    pub max_residual: f64,
}

impl Fit {
    /// The fitted overhead of (y, z).
    pub fn at(&self, y: u32, z: u32) -> f64 {
        self.a * f64::from(y) + self.b * f64::from(z) + self.c
    }
}

fn det3(m: [[f64; 3]; 3]) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// The fit of `points`; None when they do not determine it (fewer than three, or y and z
/// not varying independently).
pub fn fit(points: &[Overhead]) -> Option<Fit> {
    // Normal equations for the unknowns (a, b, c) over rows (y, z, 1).
    let mut m = [[0.0; 3]; 3];
    let mut v = [0.0; 3];
    for p in points {
        let x = [f64::from(p.y), f64::from(p.z), 1.0];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += x[i] * x[j];
            }
            v[i] += x[i] * p.cycles as f64;
        }
    }
    let d = det3(m);
    if d.abs() < 1e-9 {
        return None;
    }
    let solve = |k: usize| {
        let mut mk = m;
        for (row, value) in mk.iter_mut().zip(v) {
            row[k] = value;
        }
        det3(mk) / d
    };
    let mut f = Fit {
        a: solve(0),
        b: solve(1),
        c: solve(2),
        max_residual: 0.0,
    };
    f.max_residual = points
        .iter()
        .map(|p| (p.cycles as f64 - f.at(p.y, p.z)).abs())
        .fold(0.0, f64::max);
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_plane_is_recovered_and_a_degenerate_set_is_refused() {
        // The paper's own Table IV lies on 416y + 286z + 455 within a few cycles.
        let points: Vec<Overhead> = crate::carousel::report::PAPER_TABLE_IV
            .iter()
            .map(|&(y, z, cycles)| Overhead { y, z, cycles })
            .collect();
        let f = fit(&points).unwrap();
        assert!((f.a - 416.0).abs() < 0.5, "{f:?}");
        assert!((f.b - 289.5).abs() < 1.0, "{f:?}");
        assert!(f.max_residual < 10.0, "{f:?}");
        let exact: Vec<Overhead> = [(1, 0), (2, 1), (3, 0), (1, 2)]
            .iter()
            .map(|&(y, z)| Overhead {
                y,
                z,
                cycles: u64::from(5 * y + 7 * z + 11),
            })
            .collect();
        let g = fit(&exact).unwrap();
        assert!((g.a - 5.0).abs() < 1e-6 && (g.b - 7.0).abs() < 1e-6 && (g.c - 11.0).abs() < 1e-6);
        let line: Vec<Overhead> = (1..4)
            .map(|y| Overhead {
                y,
                z: 0,
                cycles: 10,
            })
            .collect();
        assert!(fit(&line).is_none());
    }
}
