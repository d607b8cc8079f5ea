package collada

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func write(tb testing.TB, r *rig.Rig) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r, format.WriteOptions{}); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestWrittenDocumentReplays reads the document back, resolving every
// reference, and checks counts, weights, clip timing and — skinning the
// written mesh with the written weights, inverse bind matrices and joint
// matrices — every frame of every clip against the rig within 1e-6·d.
func TestWrittenDocumentReplays(t *testing.T) {
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			rp, err := decode(write(t, r))
			if err != nil {
				t.Fatal(err)
			}
			m := r.Mesh
			if len(rp.pos) != len(m.Verts) || len(rp.polys) != m.NumPolys() || rp.polygon != (m.PolyStart != nil) {
				t.Fatalf("%d vertices, %d polygons (polylist %v); want %d, %d (%v)",
					len(rp.pos), len(rp.polys), rp.polygon, len(m.Verts), m.NumPolys(), m.PolyStart != nil)
			}
			for k, p := range rp.polys {
				if fmt.Sprint(p) != fmt.Sprint(m.Poly(k)) {
					t.Fatalf("polygon %d is %v, want %v", k, p, m.Poly(k))
				}
			}
			nj := r.Skeleton.Len()
			if len(rp.joints) != nj {
				t.Fatalf("%d joints, want %d", len(rp.joints), nj)
			}
			for j, jt := range r.Skeleton.Joints {
				if rp.parent[j] != int(jt.Parent) {
					t.Errorf("joint %d: parent %d, want %d", j, rp.parent[j], jt.Parent)
				}
			}
			for i, in := range rp.infl {
				var sum float64
				for _, x := range in {
					if x.w <= 0 {
						t.Fatalf("vertex %d: zero influence written", i)
					}
					sum += x.w
				}
				if math.Abs(sum-1) > 1e-6 {
					t.Fatalf("vertex %d: weights sum to %v", i, sum)
				}
			}
			if len(rp.clips) != len(r.Clips) {
				t.Fatalf("%d clips, want %d", len(rp.clips), len(r.Clips))
			}
			d := mesh.Diagonal(m.Verts)
			var worst float64
			for c, cl := range r.Clips {
				rc := rp.clips[c]
				if rc.name != cl.Name || rc.start != 0 || math.Abs(rc.end-float64(cl.Frames-1)/cl.FPS) > 1e-9 || len(rc.times) != cl.Frames {
					t.Fatalf("clip %d: %q %v–%v with %d keys", c, rc.name, rc.start, rc.end, len(rc.times))
				}
				for f := range cl.Frames {
					if math.Abs(rc.times[f]-float64(f)/cl.FPS) > 1e-9 {
						t.Fatalf("clip %d key %d at %v s", c, f, rc.times[f])
					}
					want := r.Frame(nil, c, f)
					for i, p := range rp.skinAt(c, f) {
						worst = math.Max(worst, p.Dist(want[i])/d)
					}
				}
			}
			if worst > 1e-6 {
				t.Fatalf("replayed frames off by up to %.3g·d", worst)
			}
			t.Logf("%d vertices, %d polygons, %d joints, %d clips: replay within %.2g·d", len(rp.pos), len(rp.polys), nj, len(rp.clips), worst)
		})
	}
}

// TestBindPose: the rest transforms of the joint nodes, composed down the
// hierarchy, put every joint at its head and cancel its inverse bind
// matrix, so the written mesh is its own bind pose.
func TestBindPose(t *testing.T) {
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			rp, err := decode(write(t, r))
			if err != nil {
				t.Fatal(err)
			}
			d := mesh.Diagonal(r.Mesh.Verts)
			for j, g := range rp.global(0, -1) {
				if g.T.Dist(r.Skeleton.Joints[j].Head) > 1e-8*d {
					t.Errorf("joint %d rests at %v, head %v", j, g.T, r.Skeleton.Joints[j].Head)
				}
				if e := affineDist(g.Mul(rp.ibm[j]), linalg.IdentityAffine()); e > 1e-8*d {
					t.Errorf("joint %d: rest ∘ inverse bind is %.3g from the identity", j, e)
				}
			}
			for i, p := range rp.skinAt(0, -1) {
				if p.Dist(r.Mesh.Verts[i]) > 1e-8*d {
					t.Fatalf("vertex %d moves in the bind pose", i)
				}
			}
		})
	}
}

func affineDist(a, b linalg.Affine) float64 {
	e := a.T.Dist(b.T)
	for k := range 3 {
		e = math.Max(e, linalg.Vec3(a.M[k]).Dist(linalg.Vec3(b.M[k])))
	}
	return e
}

// checkReferences walks the document's XML and checks that IDs are
// unique and every local reference (url, source, skeleton, channel
// target) names one.
func checkReferences(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	ids := map[string]bool{}
	var refs []string
	var inSkeleton bool
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inSkeleton = tok.Name.Local == "skeleton"
			for _, a := range tok.Attr {
				switch a.Name.Local {
				case "id":
					if ids[a.Value] {
						return fmt.Errorf("id %q used twice", a.Value)
					}
					if a.Value != ncname(a.Value, "") {
						return fmt.Errorf("id %q is not a plain NCName", a.Value)
					}
					ids[a.Value] = true
				case "url", "source":
					refs = append(refs, a.Value)
				case "target":
					id, sid, ok := strings.Cut(a.Value, "/")
					if !ok || sid != "transform" {
						return fmt.Errorf("target %q", a.Value)
					}
					refs = append(refs, "#"+id)
				}
			}
		case xml.CharData:
			if inSkeleton {
				refs = append(refs, string(tok))
			}
		case xml.EndElement:
			inSkeleton = false
		}
	}
	for _, r := range refs {
		if !strings.HasPrefix(r, "#") || !ids[r[1:]] {
			return fmt.Errorf("reference %q names no element", r)
		}
	}
	return nil
}

// TestIDsAreUniqueAndResolve gives joints and clips names that collide
// with the writer's own IDs, with each other once made NCNames, or are
// not NCNames at all.
func TestIDsAreUniqueAndResolve(t *testing.T) {
	r := chainRig(t, 8, 8, 4, 3, 3, true)
	for j, name := range []string{"mesh", "skin", "a.b", "a_b", "1st", "scene", "mesh-positions", "épaule"} {
		r.Skeleton.Joints[j].Name = name
	}
	r.Clips[0].Name, r.Clips[1].Name, r.Clips[2].Name = "a.b", "", "a_b-skin-joints"
	data := write(t, r)
	if err := checkReferences(data); err != nil {
		t.Fatal(err)
	}
	rp, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rp.joints, " "); got != "mesh skin a_b a_b_ _1st scene mesh-positions _paule" {
		t.Errorf("joint IDs %s", got)
	}
	// Node names keep the joints' own names, which importers show.
	for _, name := range []string{`name="a.b"`, `name="épaule"`} {
		if !bytes.Contains(data, []byte(name)) {
			t.Errorf("no node %s", name)
		}
	}
	for _, rig := range testRigs(t) {
		if err := checkReferences(write(t, rig)); err != nil {
			t.Error(err)
		}
	}
}

func TestNoClipsNoAnimationLibrary(t *testing.T) {
	r := chainRig(t, 2, 2, 4, 1, 0, true)
	data := write(t, r)
	if bytes.Contains(data, []byte("library_animation")) {
		t.Fatal("empty animation libraries written (the schema needs at least one entry)")
	}
	if _, err := decode(data); err != nil {
		t.Fatal(err)
	}
}

func TestRefusesOtherVersions(t *testing.T) {
	var buf bytes.Buffer
	for _, v := range []string{"1.4", "1.5.1", "2"} {
		err := Write(&buf, chainRig(t, 2, 2, 4, 2, 1, true), format.WriteOptions{Version: v})
		if !errors.Is(err, format.ErrUnsupported) || buf.Len() > 0 {
			t.Fatalf("%s: %v, %d bytes written", v, err, buf.Len())
		}
	}
	if err := Write(&buf, chainRig(t, 2, 2, 4, 2, 1, true), format.WriteOptions{Version: "1.4.1"}); err != nil {
		t.Fatal(err)
	}
}

func TestRefusesInvalidRigs(t *testing.T) {
	for name, spoil := range map[string]func(r *rig.Rig){
		"weights":  func(r *rig.Rig) { r.Skin[3].Weight[0] += 0.5 },
		"vertex":   func(r *rig.Rig) { r.Mesh.Verts[2][1] = math.NaN() },
		"rotation": func(r *rig.Rig) { r.Clips[0].Rotation[1] = linalg.Quat{} },
		"fps":      func(r *rig.Rig) { r.Clips[0].FPS = 0 },
	} {
		t.Run(name, func(t *testing.T) {
			r := chainRig(t, 3, 4, 4, 2, 1, true)
			spoil(r)
			var buf bytes.Buffer
			if err := Write(&buf, r, format.WriteOptions{}); err == nil || buf.Len() > 0 {
				t.Fatalf("written (%d bytes), err %v", buf.Len(), err)
			}
		})
	}
}

func TestNCName(t *testing.T) {
	for in, want := range map[string]string{"hip.L": "hip_L", "2nd": "_2nd", "-x": "_-x", "a b": "a_b", "": "fb", "épaule": "_paule", "a-b_c9": "a-b_c9"} {
		if got := ncname(in, "fb"); got != want {
			t.Errorf("ncname(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGolden keeps a small document readable in testdata and checks the
// output is byte-for-byte stable (no clock, no map order). Run with
// -update after an intended change.
func TestGolden(t *testing.T) {
	got := write(t, chainRig(t, 2, 2, 4, 2, 1, true))
	if !bytes.Equal(got, write(t, chainRig(t, 2, 2, 4, 2, 1, true))) {
		t.Fatal("two writes of the same rig differ")
	}
	path := filepath.Join("testdata", "chain.dae")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("output differs from %s (rerun with -update if intended)", path)
	}
}

// BenchmarkWrite: 10,000 vertices, 30 joints, 100 frames.
func BenchmarkWrite(b *testing.B) {
	r := chainRig(b, 30, 624, 16, 100, 1, true)
	var n int64
	for b.Loop() {
		var buf bytes.Buffer
		if err := Write(&buf, r, format.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		n = int64(buf.Len())
	}
	b.SetBytes(n)
}
