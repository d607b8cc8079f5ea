package abc

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// TestTimeSampling checks sample times and even steps of every kind.
func TestTimeSampling(t *testing.T) {
	cases := []struct {
		name  string
		ts    TimeSampling
		n     int
		kind  string
		times []float64
		step  float64
	}{
		{"uniform", TimeSampling{Cycle: 0.5, Times: []float64{1}}, 3, "uniform", []float64{1, 1.5, 2}, 0.5},
		{"cyclic even", TimeSampling{Cycle: 1, Times: []float64{0, 0.5}}, 4, "cyclic", []float64{0, 0.5, 1, 1.5}, 0.5},
		{"cyclic uneven", TimeSampling{Cycle: 1, Times: []float64{0, 0.2}}, 4, "cyclic", []float64{0, 0.2, 1, 1.2}, 0},
		{"acyclic even", TimeSampling{Times: []float64{0, 0.25, 0.5}}, 3, "acyclic", []float64{0, 0.25, 0.5}, 0.25},
		{"acyclic uneven", TimeSampling{Times: []float64{0, 0.1, 0.3}}, 3, "acyclic", []float64{0, 0.1, 0.3}, 0},
	}
	for _, c := range cases {
		if c.ts.Kind() != c.kind {
			t.Errorf("%s: kind %q, want %q", c.name, c.ts.Kind(), c.kind)
		}
		for i, want := range c.times {
			if got := c.ts.Time(i); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s: sample %d at %v, want %v", c.name, i, got, want)
			}
		}
		if got := c.ts.Step(c.n); math.Abs(got-c.step) > 1e-12 {
			t.Errorf("%s: step %v, want %v", c.name, got, c.step)
		}
	}
}

// shiftedTiny returns the tiny mesh's positions moved by d.
func shiftedTiny(d linalg.Vec3) []float32 {
	p := slices.Clone(tinyVerts)
	for v := 0; v < len(p)/3; v++ {
		for k := 0; k < 3; k++ {
			p[3*v+k] += float32(d[k])
		}
	}
	return p
}

// TestCyclicFile: a cyclic sampling with evenly spaced times gives its
// samples as frames at their rate.
func TestCyclicFile(t *testing.T) {
	counts, indices := tinyTopology()
	var pos [][]float32
	for s := 0; s < 4; s++ {
		pos = append(pos, shiftedTiny(linalg.Vec3{0, 0, float64(s)}))
	}
	ts := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Cycle: 1, Times: []float64{0, 0.5}, MaxSamples: 4}}
	sc := readBytes(t, writeArchive(ts, "", []*tobj{meshObj("m", 1, pos, counts, indices, nil, nil)}), Options{})
	if sc.Sequence.F() != 4 || sc.Sequence.Clips[0].FPS != 2 || !slices.Equal(sc.Times, []float64{0, 0.5, 1, 1.5}) {
		t.Fatalf("%d frames at %v fps, times %v; want 4 at 2 fps, 0 to 1.5 s", sc.Sequence.F(), sc.Sequence.Clips[0].FPS, sc.Times)
	}
	for f := 0; f < 4; f++ {
		if got := sc.Sequence.FrameInto(nil, f)[0][2]; got != float64(f) {
			t.Errorf("frame %d: z %v, want %d", f, got, f)
		}
	}
}

// TestRepeatedSamples: samples before the first change are sample 0's,
// and from the last change on the last's, as Alembic stores them once.
func TestRepeatedSamples(t *testing.T) {
	counts, indices := tinyTopology()
	stored := [][]float32{shiftedTiny(linalg.Vec3{0, 0, 0}), shiftedTiny(linalg.Vec3{0, 0, 2}), shiftedTiny(linalg.Vec3{0, 0, 3})}
	m := meshObj("m", 1, stored, counts, indices, nil, nil)
	m.props[0].props[0].changed = &[3]uint32{2, 3, 6} // first, last changed; 6 samples
	ts := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Cycle: 1, Times: []float64{0}, MaxSamples: 6}}
	sc := readBytes(t, writeArchive(ts, "", []*tobj{m}), Options{})
	want := []float64{0, 0, 2, 3, 3, 3}
	if sc.Sequence.F() != len(want) {
		t.Fatalf("%d frames, want %d", sc.Sequence.F(), len(want))
	}
	for f, z := range want {
		if got := sc.Sequence.FrameInto(nil, f)[0][2]; got != z {
			t.Errorf("frame %d: z %v, want %v", f, got, z)
		}
	}
}

// TestSeveralMeshes: without --object every animated mesh is read, one
// after another, with Parts and Objects saying where each one's vertices
// and polygons are; a static mesh is left out, and --object reads it alone.
func TestSeveralMeshes(t *testing.T) {
	counts, indices := tinyTopology()
	moving := func(name string, dz float64) *tobj {
		return meshObj(name, 1, [][]float32{shiftedTiny(linalg.Vec3{0, 0, dz}), shiftedTiny(linalg.Vec3{0, 0, dz + 1})}, counts, indices, nil, nil)
	}
	still := meshObj("still", 0, [][]float32{tinyVerts}, counts, indices, nil, nil)
	ts := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Cycle: 0.25, Times: []float64{0}, MaxSamples: 2}}
	b := writeArchive(ts, "", []*tobj{
		xformObj("a", 1, [][3]float64{{10, 0, 0}, {10, 0, 0}}, moving("ma", 0)),
		still,
		moving("mb", 5),
	})
	sc := readBytes(t, b, Options{})
	s := sc.Sequence
	if s.N() != 16 || s.F() != 2 || s.Rest.NumPolys() != 6 || len(sc.Parts) != 2 {
		t.Fatalf("%d vertices, %d frames, %d polygons, %d parts; want 16, 2, 6, 2", s.N(), s.F(), s.Rest.NumPolys(), len(sc.Parts))
	}
	if p := sc.Parts[1]; p.Path != "/mb" || p.FirstVert != 8 || p.Verts != 8 || p.FirstPoly != 3 || p.Polys != 3 {
		t.Errorf("second part %+v, want /mb from vertex 8 and polygon 3", p)
	}
	if got := s.Rest.Poly(3); !slices.Equal(got, []int{8, 9, 12, 11}) {
		t.Errorf("polygon 4 = %v, want the second mesh's first quad, offset by 8", got)
	}
	for f := 0; f < 2; f++ {
		fr := s.FrameInto(nil, f)
		if !near(fr[0], tinyVert(0).Add(linalg.Vec3{10, 0, float64(f)}), 1e-6) || !near(fr[8], tinyVert(0).Add(linalg.Vec3{0, 0, 5 + float64(f)}), 1e-6) {
			t.Errorf("frame %d: first vertices %v and %v", f, fr[0], fr[8])
		}
	}
	sf := s.Rest.Surface
	if len(sf.Parts) != 2 || sf.Parts[0].Name != "/a/ma" || sf.Parts[1].Name != "/mb" || len(sf.TriPart) != 14 ||
		sf.TriPart[6] != 0 || sf.TriPart[7] != 1 || sf.TriPart[13] != 1 {
		t.Errorf("surface parts %+v, triangle parts %v; want /a/ma for triangles 1-7, /mb for 8-14", sf.Parts, sf.TriPart)
	}
	byPath := map[string]int{}
	for _, o := range sc.Objects {
		byPath[o.Path] = o.FirstVert
		if o.Path == "/still" && !strings.Contains(o.Note, "not animated") {
			t.Errorf("/still: note %q, want not animated", o.Note)
		}
	}
	if byPath["/a/ma"] != 0 || byPath["/mb"] != 8 || byPath["/still"] != -1 || byPath["/a"] != -1 {
		t.Errorf("first vertices %v", byPath)
	}
	one := readBytes(t, b, Options{Object: "/still"})
	if one.Sequence.N() != 8 || one.Sequence.F() != 1 {
		t.Errorf("--object /still: %d vertices, %d frames; want 8 and 1", one.Sequence.N(), one.Sequence.F())
	}
}

// TestInheritsOff: an Xform that does not inherit ignores its parents.
func TestInheritsOff(t *testing.T) {
	counts, indices := tinyTopology()
	m := meshObj("m", 0, [][]float32{tinyVerts}, counts, indices, nil, nil)
	inner := xformObj("inner", 0, [][3]float64{{1, 0, 0}}, m)
	inner.props[0].props[0].samples = [][]byte{{0}} // .inherits false
	outer := xformObj("outer", 0, [][3]float64{{10, 0, 0}}, inner)
	sc := readBytes(t, writeArchive([]TimeSampling{{Cycle: 1, Times: []float64{0}}}, "", []*tobj{outer}), Options{})
	if got := sc.Sequence.FrameInto(nil, 0)[0]; !near(got, linalg.Vec3{1, 0, 0}, 1e-9) {
		t.Errorf("vertex 1 at %v, want (1, 0, 0): the outer translation not inherited", got)
	}
	inner.props[0].props[0].samples = [][]byte{{1}}
	sc = readBytes(t, writeArchive([]TimeSampling{{Cycle: 1, Times: []float64{0}}}, "", []*tobj{outer}), Options{})
	if got := sc.Sequence.FrameInto(nil, 0)[0]; !near(got, linalg.Vec3{11, 0, 0}, 1e-9) {
		t.Errorf("inheriting: vertex 1 at %v, want (11, 0, 0)", got)
	}
}

// TestNormals: face-varying normals without indices come in the read
// polygons' corner order.
func TestNormals(t *testing.T) {
	counts, indices := tinyTopology()
	m := meshObj("m", 0, [][]float32{tinyVerts}, counts, indices, nil, nil)
	var n []float32
	for c := range indices { // normal c's x is the stored corner number
		n = append(n, float32(c), 0, 1)
	}
	m.props[0].props = append(m.props[0].props, &tprop{name: "N", kind: Array, pod: Float32, extent: 3, meta: "geoScope=fvr", samples: [][]byte{f32s(n...)}})
	sc := readBytes(t, writeArchive([]TimeSampling{{Cycle: 1, Times: []float64{0}}}, "", []*tobj{m}), Options{})
	nr := sc.Parts[0].Normals
	if nr == nil || nr.Scope != "fvr" || nr.Indices != nil || len(nr.Values) != 3*len(indices) {
		t.Fatalf("normals %+v", nr)
	}
	var got []float32
	for c := 0; c < len(indices); c++ {
		got = append(got, nr.Values[3*c])
	}
	want := []float32{3, 2, 1, 0, 7, 6, 5, 4, 12, 11, 10, 9, 8}
	if !slices.Equal(got, want) {
		t.Errorf("corner order %v, want %v", got, want)
	}
	// In the Surface, triangle corners take their polygon corner's normal.
	rest := sc.Sequence.Rest
	sn := rest.Surface.Normals
	corner := 0
	for k := 0; k < rest.NumPolys(); k++ {
		p := rest.Poly(k)
		for tr := range rest.Tris {
			if rest.TriPoly[tr] != k {
				continue
			}
			for c, v := range rest.Tris[tr] {
				i := slices.Index(p, v)
				w := linalg.Vec3{float64(want[corner+i]), 0, 1}
				w = w.Scale(1 / w.Norm())
				n := sn.At(tr, c, v)
				if !near(linalg.Vec3{float64(n[0]), float64(n[1]), float64(n[2])}, w, 1e-6) {
					t.Errorf("triangle %d corner %d: normal %v, want %v", tr, c, n, w)
				}
			}
		}
		corner += len(p)
	}
}

// TestNormalsTransformed: normals turn with the Xform above the mesh by
// the inverse transpose: a stretch along x tilts them away from x, and the
// rotation turns them as it turns the points.
func TestNormalsTransformed(t *testing.T) {
	counts, indices := tinyTopology()
	m := meshObj("m", 0, [][]float32{tinyVerts}, counts, indices, nil, nil)
	var n []float32
	for range tinyVerts[:len(tinyVerts)/3] {
		n = append(n, 1, 1, 0)
	}
	m.props[0].props = append(m.props[0].props, &tprop{name: "N", kind: Array, pod: Float32, extent: 3, meta: "geoScope=vtx", samples: [][]byte{f32s(n...)}})
	x := &tobj{name: "x", meta: "schema=AbcGeom_Xform_v3", kids: []*tobj{m}, props: []*tprop{{name: ".xform", kind: Compound, props: []*tprop{
		{name: ".ops", kind: Scalar, pod: Uint8, extent: 2, samples: [][]byte{{byte(OpRotateZ) << 4, byte(OpScale) << 4}}},
		{name: ".vals", kind: Scalar, pod: Float64, extent: 4, samples: [][]byte{f64s(90, 2, 1, 1)}},
	}}}}
	sc := readBytes(t, writeArchive([]TimeSampling{{Cycle: 1, Times: []float64{0}}}, "", []*tobj{x}), Options{})
	rest := sc.Sequence.Rest
	if got := rest.Verts[1]; !near(got, linalg.Vec3{0, 2, 0}, 1e-12) {
		t.Errorf("vertex 2 at %v, want (0, 2, 0)", got)
	}
	// (1, 1, 0) unstretched to (0.5, 1, 0), then turned 90° about z.
	want := linalg.Vec3{-1, 0.5, 0}
	want = want.Scale(1 / want.Norm())
	nn := rest.Surface.Normals.At(0, 0, rest.Tris[0][0])
	if got := (linalg.Vec3{float64(nn[0]), float64(nn[1]), float64(nn[2])}); !near(got, want, 1e-6) {
		t.Errorf("normal %v, want %v", got, want)
	}
}

// TestNonFinite: a point that is NaN or infinite is an error naming the
// sample and the point.
func TestNonFinite(t *testing.T) {
	counts, indices := tinyTopology()
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		p := slices.Clone(tinyVerts)
		p[3*5+1] = bad
		m := meshObj("m", 1, [][]float32{tinyVerts, p}, counts, indices, nil, nil)
		ts := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Cycle: 1, Times: []float64{0}, MaxSamples: 2}}
		b := writeArchive(ts, "", []*tobj{m})
		_, err := Read(bytes.NewReader(b), int64(len(b)), Options{})
		if err == nil || !strings.Contains(err.Error(), "sample 1: point 5 is not finite") {
			t.Errorf("P with %v: %v, want sample 1, point 5 named", bad, err)
		}
	}
}

// TestMixedSamplings: positions at 24 fps under a transform sampled at
// uneven times make an even grid over both spans at 24 fps, raised to 30
// so that the last sample (0.1 s) is a frame; both are interpolated.
func TestMixedSamplings(t *testing.T) {
	counts, indices := tinyTopology()
	var pos [][]float32
	for s := 0; s < 3; s++ {
		pos = append(pos, shiftedTiny(linalg.Vec3{0, 0.5 * float64(s), 0}))
	}
	m := meshObj("m", 1, pos, counts, indices, nil, nil)
	ts := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Cycle: 1.0 / 24, Times: []float64{0}, MaxSamples: 3}, {Times: []float64{0, 0.1}, MaxSamples: 2}}
	sc := readBytes(t, writeArchive(ts, "", []*tobj{xformObj("x", 2, [][3]float64{{0, 0, 0}, {1, 0, 0}}, m)}), Options{})
	s := sc.Sequence
	if s.F() != 4 || math.Abs(s.Clips[0].FPS-30) > 1e-9 {
		t.Fatalf("%d frames at %v fps, want 4 at 30", s.F(), s.Clips[0].FPS)
	}
	for f, tm := range sc.Times {
		want := tinyVert(0).Add(linalg.Vec3{10 * tm, 12 * min(tm, 2.0/24), 0})
		if got := s.FrameInto(nil, f)[0]; !near(got, want, 1e-6) {
			t.Errorf("frame %d (%.4g s): vertex 1 at %v, want %v", f, tm, got, want)
		}
	}
}

// TestArrayVals: an Xform's channels stored as an array property (as
// Alembic does past 255 channels) read like a scalar's.
func TestArrayVals(t *testing.T) {
	counts, indices := tinyTopology()
	m := meshObj("m", 0, [][]float32{tinyVerts}, counts, indices, nil, nil)
	x := xformObj("x", 0, [][3]float64{{0, 0, 0}}, m)
	vals := x.props[0].props[2]
	vals.kind, vals.extent, vals.samples = Array, 1, [][]byte{f64s(0, 0, 7)}
	sc := readBytes(t, writeArchive([]TimeSampling{{Cycle: 1, Times: []float64{0}}}, "", []*tobj{x}), Options{})
	if got := sc.Sequence.FrameInto(nil, 0)[0]; !near(got, linalg.Vec3{0, 0, 7}, 1e-12) {
		t.Errorf("vertex 1 at %v, want (0, 0, 7)", got)
	}
}
