package linalg

import "math"

// SymEigen4 returns the eigenvalues of the symmetric 4×4 matrix a in
// decreasing order and the matching unit eigenvectors as columns of v
// (cyclic Jacobi; deterministic, no allocation).
func SymEigen4(a [4][4]float64) (vals [4]float64, v [4][4]float64) {
	return symEigen(a, 4)
}

// SymEigen3 is SymEigen4 for a symmetric 3×3 matrix.
func SymEigen3(m Mat3) (vals Vec3, v Mat3) {
	var a [4][4]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			a[i][j] = m[i][j]
		}
	}
	w, e := symEigen(a, 3)
	for i := 0; i < 3; i++ {
		vals[i] = w[i]
		for j := 0; j < 3; j++ {
			v[i][j] = e[i][j]
		}
	}
	return vals, v
}

func symEigen(a [4][4]float64, n int) (vals [4]float64, v [4][4]float64) {
	for i := 0; i < n; i++ {
		v[i][i] = 1
	}
	for sweep := 0; sweep < 50; sweep++ {
		var off, diag float64
		for i := 0; i < n; i++ {
			diag += a[i][i] * a[i][i]
			for j := i + 1; j < n; j++ {
				off += a[i][j] * a[i][j]
			}
		}
		if off <= 1e-30*diag || off == 0 {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				if a[p][q] == 0 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < n; k++ {
					akp, akq := a[k][p], a[k][q]
					a[k][p] = c*akp - s*akq
					a[k][q] = s*akp + c*akq
				}
				for k := 0; k < n; k++ {
					apk, aqk := a[p][k], a[q][k]
					a[p][k] = c*apk - s*aqk
					a[q][k] = s*apk + c*aqk
				}
				for k := 0; k < n; k++ {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p] = c*vkp - s*vkq
					v[k][q] = s*vkp + c*vkq
				}
			}
		}
	}
	// Sort decreasing (selection sort on at most 4 entries).
	for i := 0; i < n; i++ {
		vals[i] = a[i][i]
	}
	for i := 0; i < n; i++ {
		best := i
		for j := i + 1; j < n; j++ {
			if vals[j] > vals[best] {
				best = j
			}
		}
		if best != i {
			vals[i], vals[best] = vals[best], vals[i]
			for k := 0; k < n; k++ {
				v[k][i], v[k][best] = v[k][best], v[k][i]
			}
		}
	}
	return vals, v
}
