package collada

import (
	"bytes"
	"encoding/xml"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// testRigs: a skeletal tube of quads with two clips, and a free-form rig.
func testRigs(t *testing.T) map[string]*rig.Rig {
	tube := testrig.Tube(t, 6, linalg.Vec3{})
	second := tube.Clips[0]
	second.Name = "second clip"
	tube.Clips = append(tube.Clips, second)
	var tr []linalg.Affine
	for f := 0; f < 4; f++ {
		for b := 0; b < 3; b++ {
			tr = append(tr, linalg.Rigid(linalg.QuatFromAxisAngle(linalg.Vec3{0, 1, 1}, 0.1*float64(f*b)), linalg.Vec3{0.1 * float64(f), 0, 0}))
		}
	}
	free, err := rig.NewFree(tube.Mesh, tube.Skin, 3, "free", 30, 4, tr)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*rig.Rig{"tube": tube, "free": free}
}

func parseFloats(s string) []float64 {
	var out []float64
	for _, f := range strings.Fields(s) {
		x, _ := strconv.ParseFloat(f, 64)
		out = append(out, x)
	}
	return out
}

func affine(v []float64) linalg.Affine {
	return linalg.Affine{M: linalg.Mat3{{v[0], v[1], v[2]}, {v[4], v[5], v[6]}, {v[8], v[9], v[10]}}, T: linalg.Vec3{v[3], v[7], v[11]}}
}

// TestWrittenDocumentReplays parses the XML back and skins the written
// mesh with the written weights and joint matrices: every frame of every
// clip must match the rig within 1e-6·d.
func TestWrittenDocumentReplays(t *testing.T) {
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			var doc document
			if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			g := doc.Geometries[0].Mesh
			pos := parseFloats(g.Sources[0].Floats.Data)
			if len(pos) != 3*len(r.Mesh.Verts) {
				t.Fatalf("%d coordinates", len(pos))
			}
			if g.Polylist == nil || g.Polylist.Count != r.Mesh.NumPolys() {
				t.Fatalf("polygons not kept")
			}
			sk := doc.Controller[0].Skin
			nj := r.Skeleton.Len()
			ibm := parseFloats(sk.Sources[1].Floats.Data)
			wts := parseFloats(sk.Sources[2].Floats.Data)
			vc := parseFloats(sk.VertexWeights.VCount)
			v := parseFloats(sk.VertexWeights.V)
			// Weights per vertex sum to one.
			at := 0
			type jw struct {
				j int
				w float64
			}
			infl := make([][]jw, len(vc))
			for i, c := range vc {
				var sum float64
				for k := 0; k < int(c); k++ {
					w := wts[int(v[at+1])]
					infl[i] = append(infl[i], jw{int(v[at]), w})
					sum += w
					at += 2
				}
				if math.Abs(sum-1) > 1e-7 {
					t.Fatalf("vertex %d weights sum to %v", i, sum)
				}
			}
			// Local matrices per joint per clip, by channel target.
			if len(doc.Animations) != len(r.Clips) || len(doc.Clips) != len(r.Clips) {
				t.Fatalf("%d animations, %d clips for %d", len(doc.Animations), len(doc.Clips), len(r.Clips))
			}
			index := map[string]int{}
			for j, id := range strings.Fields(sk.Sources[0].Names.Data) {
				index[id] = j
			}
			d := mesh.Diagonal(r.Mesh.Verts)
			for c, group := range doc.Animations {
				if len(group.Children) != nj {
					t.Fatalf("clip %d: %d channels, want %d", c, len(group.Children), nj)
				}
				local := make([][]float64, nj)
				for _, a := range group.Children {
					j := index[strings.TrimSuffix(a.Channel.Target, "/transform")]
					local[j] = parseFloats(a.Sources[1].Floats.Data)
				}
				for f := 0; f < r.Clips[c].Frames; f++ {
					global := make([]linalg.Affine, nj)
					for j, jt := range r.Skeleton.Joints {
						l := affine(local[j][16*f : 16*f+16])
						if jt.Parent == rig.NoParent {
							global[j] = l
						} else {
							global[j] = global[jt.Parent].Mul(l)
						}
					}
					want := r.Frame(nil, c, f)
					for i := range want {
						p := linalg.Vec3{pos[3*i], pos[3*i+1], pos[3*i+2]}
						var got linalg.Vec3
						for _, x := range infl[i] {
							m := global[x.j].Mul(affine(ibm[16*x.j : 16*x.j+16]))
							got = got.Add(m.Apply(p).Scale(x.w))
						}
						if got.Dist(want[i]) > 1e-6*d {
							t.Fatalf("clip %d frame %d vertex %d off by %.3g·d", c, f, i, got.Dist(want[i])/d)
						}
					}
				}
			}
		})
	}
}

func TestRefusesOtherVersions(t *testing.T) {
	r := testrig.Tube(t, 2, linalg.Vec3{})
	if err := Write(&bytes.Buffer{}, r, format.WriteOptions{Version: "1.5"}); err == nil {
		t.Fatal("1.5 accepted before it is supported")
	}
}

func TestNCName(t *testing.T) {
	for in, want := range map[string]string{"hip.L": "hip.L", "2nd": "j_2nd", "a b": "a_b", "": "joint", "épaule": "_paule"} {
		if got := ncname(in); got != want {
			t.Errorf("ncname(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAssimpReadsOutput runs `assimp info` on written files and checks
// its counts of meshes, vertices, faces, bones, animations and channels.
func TestAssimpReadsOutput(t *testing.T) {
	_, err := exec.LookPath("assimp")
	shareddata.RequireTool(t, err == nil, "assimp (Debian package assimp-utils)")
	dir := t.TempDir()
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name+".dae")
			if err := format.WriteFile(p, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("assimp", "info", p, "-r").CombinedOutput()
			if err != nil {
				t.Fatalf("assimp failed: %v\n%s", err, out)
			}
			count := func(label string) int {
				m := regexp.MustCompile(`(?m)^` + label + `:\s+(\d+)`).FindSubmatch(out)
				if m == nil {
					t.Fatalf("assimp printed no %q:\n%s", label, out)
				}
				n, _ := strconv.Atoi(string(m[1]))
				return n
			}
			weighted := map[rig.JointID]bool{}
			for _, in := range r.Skin {
				for k, w := range in.Weight {
					if w > 0 {
						weighted[in.Joint[k]] = true
					}
				}
			}
			// Without post-processing (-r) assimp keeps one vertex per
			// polygon corner.
			corners := 0
			for k := 0; k < r.Mesh.NumPolys(); k++ {
				corners += len(r.Mesh.Poly(k))
			}
			want := map[string]int{
				"Meshes":             1,
				"Vertices":           corners,
				"Bones":              len(weighted),
				"Animations":         len(r.Clips),
				"Animation Channels": len(r.Clips) * r.Skeleton.Len(),
			}
			for label, n := range want {
				if got := count(label); got != n {
					t.Errorf("assimp %s: %d, want %d", label, got, n)
				}
			}
			t.Logf("%s: assimp reports %v", name, want)
		})
	}
}

func BenchmarkWrite(b *testing.B) {
	r := testrig.Tube(b, 100, linalg.Vec3{})
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, r, format.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
