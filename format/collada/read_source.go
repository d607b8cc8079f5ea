package collada

import (
	"math"
	"strconv"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// nextField returns the whitespace-separated field of s starting at or
// after i, and the index after it; field is "" at the end.
func nextField(s string, i int) (field string, next int) {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isSpace(s[j]) {
		j++
	}
	return s[i:j], j
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// countFields counts the fields of s without allocating.
func countFields(s string) int {
	n := 0
	for f, i := nextField(s, 0); f != ""; f, i = nextField(s, i) {
		n++
	}
	return n
}

// spend charges n parsed values against the document's budget; the
// caller has counted them in the text, so they are there.
func (d *doc) spend(e *elem, n int) error {
	d.numbers += n
	if d.numbers > d.lim.numbers {
		return e.errorf("more than %d numbers in the arrays read: %w", d.lim.numbers, errTooLarge)
	}
	return nil
}

// numbers parses the text of e as finite floats: want of them, or any
// number when want < 0.
func (d *doc) numbersOf(e *elem, want int) ([]float64, error) {
	n := countFields(e.text)
	if want >= 0 && n != want {
		return nil, e.errorf("holds %d numbers, want %d", n, want)
	}
	if err := d.spend(e, n); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	k := 0
	for f, i := nextField(e.text, 0); f != ""; f, i = nextField(e.text, i) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, e.errorf("value %d, %q, is not a finite number", k+1, f)
		}
		out[k] = x
		k++
	}
	return out, nil
}

// intsOf parses the text of e as integers: want of them, or any number
// when want < 0.
func (d *doc) intsOf(e *elem, want int) ([]int, error) {
	n := countFields(e.text)
	if want >= 0 && n != want {
		return nil, e.errorf("holds %d indices, want %d", n, want)
	}
	if err := d.spend(e, n); err != nil {
		return nil, err
	}
	out := make([]int, n)
	k := 0
	for f, i := nextField(e.text, 0); f != ""; f, i = nextField(e.text, i) {
		x, err := strconv.ParseInt(f, 10, 32)
		if err != nil {
			return nil, e.errorf("value %d, %q, is not an index", k+1, f)
		}
		out[k] = int(x)
		k++
	}
	return out, nil
}

// countAttr reads a non-negative integer attribute; def when absent, or an
// error when def < 0 (required).
func countAttr(e *elem, name string, def int) (int, error) {
	if !e.has(name) {
		if def < 0 {
			return 0, e.errorf("no %s attribute", name)
		}
		return def, nil
	}
	n, err := strconv.ParseInt(e.get(name), 10, 32)
	if err != nil || n < 0 {
		return 0, e.errorf("%s=%q is not a count", name, e.get(name))
	}
	return int(n), nil
}

// floatArray parses a <float_array>: exactly its count attribute of
// finite numbers, once per document.
func (d *doc) floatArray(arr *elem) ([]float64, error) {
	if v, ok := d.floats[arr]; ok {
		return v, nil
	}
	n, err := countAttr(arr, "count", -1)
	if err != nil {
		return nil, err
	}
	v, err := d.numbersOf(arr, n)
	if err != nil {
		return nil, err
	}
	d.floats[arr] = v
	return v, nil
}

// accessor is where a source's elements lie in its array: count elements
// of stride values from offset.
type accessor struct {
	el                    *elem
	count, stride, offset int
}

// accessorOf reads a source's accessor and resolves its array, checking
// that count elements of width values fit in n values.
func (d *doc) accessorOf(src *elem, arrays ...string) (accessor, *elem, error) {
	tc := src.child("technique_common")
	var el *elem
	if tc != nil {
		el = tc.child("accessor")
	}
	if el == nil {
		return accessor{}, nil, src.errorf("no <technique_common><accessor>")
	}
	arr, err := d.ref(el, "source", el.get("source"), arrays...)
	if err != nil {
		return accessor{}, nil, err
	}
	a := accessor{el: el}
	if a.count, err = countAttr(el, "count", -1); err != nil {
		return a, nil, err
	}
	if a.stride, err = countAttr(el, "stride", 1); err != nil {
		return a, nil, err
	}
	if a.offset, err = countAttr(el, "offset", 0); err != nil {
		return a, nil, err
	}
	return a, arr, nil
}

// fits checks that the accessor's elements of width values lie within n
// values.
func (a accessor) fits(width, n int) error {
	if a.stride < width {
		return a.el.errorf("stride %d, want at least %d", a.stride, width)
	}
	// Each bound first on its own, so the product cannot overflow.
	if a.count > 0 && (a.count > n || a.stride > n || a.offset > n || a.offset+(a.count-1)*a.stride+width > n) {
		return a.el.errorf("%d elements of %d values from %d do not fit in the array's %d values", a.count, a.stride, a.offset, n)
	}
	return nil
}

// floatSource reads the <source> at url as elements of width floats
// (the first width of each element's stride): count·width values, and
// count. The result may be shared: callers must not modify it.
func (d *doc) floatSource(from *elem, what, url string, width int) ([]float64, int, error) {
	src, err := d.ref(from, what, url, "source")
	if err != nil {
		return nil, 0, err
	}
	a, arr, err := d.accessorOf(src, "float_array")
	if err != nil {
		return nil, 0, err
	}
	v, err := d.floatArray(arr)
	if err != nil {
		return nil, 0, err
	}
	if err := a.fits(width, len(v)); err != nil {
		return nil, 0, err
	}
	if a.offset == 0 && a.stride == width && a.count*width == len(v) {
		return v, a.count, nil
	}
	out := make([]float64, 0, a.count*width)
	for k := 0; k < a.count; k++ {
		at := a.offset + k*a.stride
		out = append(out, v[at:at+width]...)
	}
	return out, a.count, nil
}

// nameSource reads the <source> at url as names (a Name_array or an
// IDREF_array) and returns them with the array's element name.
func (d *doc) nameSource(from *elem, what, url string) ([]string, string, error) {
	src, err := d.ref(from, what, url, "source")
	if err != nil {
		return nil, "", err
	}
	if arr := src.child("SIDREF_array"); arr != nil {
		return nil, "", arr.errorf("%w: joints named by SID references (use a Name_array or IDREF_array)", format.ErrUnsupported)
	}
	a, arr, err := d.accessorOf(src, "Name_array", "IDREF_array")
	if err != nil {
		return nil, "", err
	}
	n, err := countAttr(arr, "count", -1)
	if err != nil {
		return nil, "", err
	}
	if got := countFields(arr.text); got != n {
		return nil, "", arr.errorf("holds %d names, count says %d", got, n)
	}
	if err := a.fits(1, n); err != nil {
		return nil, "", err
	}
	if err := d.spend(arr, n); err != nil {
		return nil, "", err
	}
	all := make([]string, 0, n)
	for f, i := nextField(arr.text, 0); f != ""; f, i = nextField(arr.text, i) {
		all = append(all, f)
	}
	out := make([]string, a.count)
	for k := range out {
		out[k] = all[a.offset+k*a.stride]
	}
	return out, arr.name, nil
}

// affineAt reads the row-major 4×4 matrix v[16k:16k+16] (COLLADA's
// layout: translation in the last column), refusing a projective one.
func affineAt(e *elem, v []float64, k int) (linalg.Affine, error) {
	m := v[16*k : 16*k+16]
	if math.Abs(m[12]) > 1e-9 || math.Abs(m[13]) > 1e-9 || math.Abs(m[14]) > 1e-9 || math.Abs(m[15]-1) > 1e-9 {
		return linalg.Affine{}, e.errorf("matrix %d has bottom row %v: %w (projective transforms)", k+1, m[12:], format.ErrUnsupported)
	}
	return linalg.Affine{
		M: linalg.Mat3{{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}},
		T: linalg.Vec3{m[3], m[7], m[11]},
	}, nil
}

// vec3s turns 3n floats into n points.
func vec3s(v []float64) []linalg.Vec3 {
	out := make([]linalg.Vec3, len(v)/3)
	for i := range out {
		out[i] = linalg.Vec3{v[3*i], v[3*i+1], v[3*i+2]}
	}
	return out
}
