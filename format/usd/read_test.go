package usd

import (
	"bytes"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// codec is one of the layer forms: .usda text or the .usdc crate.
type codec struct {
	name  string
	write func(io.Writer, *rig.Rig, format.WriteOptions) error
	read  func(io.Reader) (*rig.Rig, error)
}

var codecs = []codec{{"usda", Write, Read}, {"usdc", WriteUSDC, ReadUSDC}}

// writeRead writes r as .usda and reads it back.
func writeRead(t *testing.T, r *rig.Rig) *rig.Rig { return writeReadAs(t, r, codecs[0]) }

// writeReadAs writes r in the codec's form and reads it back.
func writeReadAs(t *testing.T, r *rig.Rig, c codec) *rig.Rig {
	t.Helper()
	var buf bytes.Buffer
	if err := c.write(&buf, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := c.read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// f32tol is how far a value may move through a float32 field: a few
// units in the last place of its magnitude.
func f32tol(v float64) float64 { return 4 * math.Abs(v) * 0x1p-24 }

// TestReadRoundTrip writes each test rig as .usda and as .usdc and reads
// it back: the same
// joints (names, parents, heads exactly), faces exactly, points,
// weights and every frame's rotations and translations to float32, the
// clips' names, rates and frame counts; and the rig read replays the
// rig written, through FK and LBS, within 1e-5 RMSE% (Max% 1e-4) —
// times R/d when that is above 1, R the largest coordinate and d the
// diagonal: points and translations are float32 in the file (UsdSkel's
// point3f, float3), so a model far from the origin for its size loses
// more of its size to rounding (the tube, 10 units off for a diagonal
// of 3, is held to 4.3e-5).
func TestReadRoundTrip(t *testing.T) {
	for name, r := range testRigs(t) {
		for _, c := range codecs {
			t.Run(name+"/"+c.name, func(t *testing.T) { roundTrip(t, name, r, writeReadAs(t, r, c)) })
		}
	}
}

// roundTrip checks the rig read back, got, against the rig written, r.
func roundTrip(t *testing.T, name string, r, got *rig.Rig) {
	t.Helper()
	{
		{
			if got.Skeleton.Len() != r.Skeleton.Len() {
				t.Fatalf("%d joints, want %d", got.Skeleton.Len(), r.Skeleton.Len())
			}
			for j, jt := range r.Skeleton.Joints {
				if g := got.Skeleton.Joints[j]; g != jt {
					t.Errorf("joint %d is %+v, want %+v", j, g, jt)
				}
			}
			m, w := got.Mesh, r.Mesh
			if !slices.Equal(m.Tris, w.Tris) || !slices.Equal(m.PolyStart, w.PolyStart) || !slices.Equal(m.PolyVerts, w.PolyVerts) {
				t.Fatalf("faces differ: %d triangles, %d polygons; want %d, %d", len(m.Tris), m.NumPolys(), len(w.Tris), w.NumPolys())
			}
			for i, v := range w.Verts {
				for k := range v {
					if d := math.Abs(m.Verts[i][k] - v[k]); d > f32tol(v[k]) {
						t.Fatalf("vertex %d at %v, want %v", i, m.Verts[i], v)
					}
				}
				for s := range r.Skin[i].Weight {
					a, b := got.Skin[i], r.Skin[i]
					if a.Joint[s] != b.Joint[s] || math.Abs(a.Weight[s]-b.Weight[s]) > f32tol(1) {
						t.Fatalf("vertex %d: influences %+v, want %+v", i, a, b)
					}
				}
			}
			if len(got.Clips) != len(r.Clips) {
				t.Fatalf("%d clips, want %d", len(got.Clips), len(r.Clips))
			}
			for c := range r.Clips {
				a, b := &got.Clips[c], &r.Clips[c]
				if a.Name != b.Name || a.FPS != b.FPS || a.Frames != b.Frames {
					t.Fatalf("clip %d: %q at %v fps, %d frames; want %q at %v, %d", c, a.Name, a.FPS, a.Frames, b.Name, b.FPS, b.Frames)
				}
				for k := range b.Rotation {
					q, p := a.Rotation[k], b.Rotation[k]
					if math.Abs(q.W-p.W) > 1e-7 || math.Abs(q.X-p.X) > 1e-7 || math.Abs(q.Y-p.Y) > 1e-7 || math.Abs(q.Z-p.Z) > 1e-7 {
						t.Fatalf("clip %d entry %d: rotation %v, want %v", c, k, q, p)
					}
					for i := range 3 {
						if math.Abs(a.Translation[k][i]-b.Translation[k][i]) > f32tol(b.Translation[k][i]) {
							t.Fatalf("clip %d entry %d: translation %v, want %v", c, k, a.Translation[k], b.Translation[k])
						}
					}
				}
			}
			limit := math.Max(1, farthest(r)/mesh.Diagonal(r.Mesh.Verts))
			rep, err := metric.Compare(character.Sequence(r), got)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: replay RMSE%% %.3g, Max%% %.3g", name, rep.RMSEPercent, rep.MaxPercent)
			if !(rep.RMSEPercent <= 1e-5*limit) || !(rep.MaxPercent <= 1e-4*limit) {
				t.Errorf("the rig read replays the rig written with RMSE%% %g, Max%% %g; limit %g, %g", rep.RMSEPercent, rep.MaxPercent, 1e-5*limit, 1e-4*limit)
			}
		}
	}
}

// farthest returns the largest coordinate of r's points, heads and
// translations.
func farthest(r *rig.Rig) float64 {
	var m float64
	for _, vs := range [][]linalg.Vec3{r.Mesh.Verts, headsOf(r)} {
		for _, v := range vs {
			m = max(m, math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2]))
		}
	}
	for _, c := range r.Clips {
		for _, v := range c.Translation {
			m = max(m, math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2]))
		}
	}
	return m
}

func headsOf(r *rig.Rig) []linalg.Vec3 {
	out := make([]linalg.Vec3, r.Skeleton.Len())
	for j, jt := range r.Skeleton.Joints {
		out[j] = jt.Head
	}
	return out
}

// TestReadStatic reads back a rig without clips: no animation, no time
// codes, the same skeleton.
func TestReadStatic(t *testing.T) {
	r := tinySurfaced(t)
	r.Clips = nil
	var b bytes.Buffer
	if err := Write(&b, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte("SkelAnimation")) || bytes.Contains(b.Bytes(), []byte("timeCodesPerSecond")) {
		t.Fatalf("a rig without clips written with an animation or time codes:\n%s", b.String())
	}
	got, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Clips) != 0 || got.Skeleton.Len() != 2 || got.Skeleton.Joints[1] != r.Skeleton.Joints[1] {
		t.Fatalf("read %d clips and joints %+v", len(got.Clips), got.Skeleton.Joints)
	}
}
