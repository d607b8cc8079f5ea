package collada

import (
	"strconv"

	"github.com/meshrig/meshrig/linalg"
)

// Numbers are written with 9 significant digits: float32 round-trips
// exactly and the replay error stays near 1e-9 of the model size.
const digits = 9

// appendMatrix appends an affine transform as COLLADA's row-major 4×4
// (translation in the last column, bottom row 0 0 0 1).
func appendMatrix(b []byte, a linalg.Affine) []byte {
	return appendFloats(b,
		a.M[0][0], a.M[0][1], a.M[0][2], a.T[0],
		a.M[1][0], a.M[1][1], a.M[1][2], a.T[1],
		a.M[2][0], a.M[2][1], a.M[2][2], a.T[2],
		0, 0, 0, 1)
}

// appendFloats appends v separated by spaces, with a leading space when b
// already holds something.
func appendFloats(b []byte, v ...float64) []byte {
	for _, x := range v {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		if x == 0 {
			x = 0 // no "-0"
		}
		b = strconv.AppendFloat(b, x, 'g', digits, 64)
	}
	return b
}

// number is a float attribute written like the arrays.
type number float64

func (x number) MarshalText() ([]byte, error) { return appendFloats(nil, float64(x)), nil }

func (x *number) UnmarshalText(b []byte) error {
	v, err := strconv.ParseFloat(string(b), 64)
	*x = number(v)
	return err
}

// appendInts is appendFloats for indices and counts.
func appendInts(b []byte, v ...int) []byte {
	for _, x := range v {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return b
}

func matrix(a linalg.Affine) string { return string(appendMatrix(nil, a)) }

func vecs(v []linalg.Vec3) string {
	b := make([]byte, 0, 3*12*len(v))
	for _, p := range v {
		b = appendFloats(b, p[0], p[1], p[2])
	}
	return string(b)
}

// floatSource is a source of count elements of stride floats each,
// described by params (one per float of an element, or one float4x4).
func floatSource(id string, data string, values, count, stride int, params ...param) source {
	return source{ID: id,
		Floats: &floatArr{ID: id + "-array", Count: values, Data: data},
		Access: accessorEl{Source: "#" + id + "-array", Count: count, Stride: stride, Params: params}}
}

// nameSource is a source of count names of one param each.
func nameSource(id string, names string, count int, p param) source {
	return source{ID: id,
		Names:  &nameArr{ID: id + "-array", Count: count, Data: names},
		Access: accessorEl{Source: "#" + id + "-array", Count: count, Stride: 1, Params: []param{p}}}
}

// xyzSource is a float source of n 3-vectors.
func xyzSource(id string, v []linalg.Vec3) source {
	return floatSource(id, vecs(v), 3*len(v), len(v), 3, param{"X", "float"}, param{"Y", "float"}, param{"Z", "float"})
}
