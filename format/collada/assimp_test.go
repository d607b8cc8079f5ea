package collada

import (
	"encoding/xml"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// TestAssimpReadsOutput runs `assimp info -r` (no post-processing) on
// written files and checks what it imported: one mesh, a vertex per
// polygon corner (assimp unshares vertices that carry per-corner
// normals), the polygons as written, a bone per joint that carries
// weight (assimp drops joints no vertex uses, like a free rig's root),
// one animation per clip named after it, and a channel per joint in each.
// Run by hand: `assimp info FILE -r`.
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
			corners := 0
			for k := 0; k < r.Mesh.NumPolys(); k++ {
				corners += len(r.Mesh.Poly(k))
			}
			want := map[string]int{
				"Meshes":             1,
				"Vertices":           corners,
				"Faces":              r.Mesh.NumPolys(),
				"Bones":              len(weighted),
				"Animations":         len(r.Clips),
				"Animation Channels": len(r.Clips) * r.Skeleton.Len(),
			}
			for label, n := range want {
				if got := count(label); got != n {
					t.Errorf("assimp %s: %d, want %d", label, got, n)
				}
			}
			// assimp 5.x never reads library_animation_clips (it hands the
			// library, not each clip, to its clip reader), so it names each
			// top-level animation "<first animation>_<animation>"; a reader
			// that honours the clips names them after the clips.
			names := regexp.MustCompile(`(?m)^\s+'(.*)'$`).FindAllSubmatch(out, -1)
			if len(names) != len(r.Clips) {
				t.Fatalf("assimp lists %d animation names for %d clips", len(names), len(r.Clips))
			}
			for c, cl := range r.Clips {
				got := string(names[c][1])
				if got != cl.Name && got != r.Clips[0].Name+"_"+cl.Name {
					t.Errorf("assimp names animation %d %q for clip %q", c, got, cl.Name)
				}
			}
			t.Logf("%s: assimp reports %v", name, want)
		})
	}
}

// assxml is the part of assimp's XML dump (`assimp dump FILE OUT.assxml`)
// that holds the imported animation keys and bone offset matrices.
type assxml struct {
	Animations []struct {
		Name  string `xml:"name,attr"`
		Nodes []struct {
			Node      string   `xml:"node,attr"`
			Positions []assKey `xml:"PositionKeyList>PositionKey"`
			Rotations []assKey `xml:"RotationKeyList>RotationKey"`
		} `xml:"NodeAnimList>NodeAnim"`
	} `xml:"Scene>AnimationList>Animation"`
	Bones []struct {
		Name   string `xml:"name,attr"`
		Matrix string `xml:"Matrix4"`
	} `xml:"Scene>MeshList>Mesh>BoneList>Bone"`
}

type assKey struct {
	Time  float64 `xml:"time,attr"`
	Value string  `xml:",chardata"`
}

// TestAssimpAnimatesJoints dumps what assimp imported and checks the
// animation itself, not just counts: at every key of every clip each
// joint's local translation and rotation (assimp decomposes the written
// matrices) equal the rig's, at time f/FPS, and every bone's offset
// matrix is the translation by −Head. A transposed matrix or a wrong
// target would fail here.
func TestAssimpAnimatesJoints(t *testing.T) {
	_, err := exec.LookPath("assimp")
	shareddata.RequireTool(t, err == nil, "assimp (Debian package assimp-utils)")
	dir := t.TempDir()
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			p, dump := filepath.Join(dir, name+".dae"), filepath.Join(dir, name+".assxml")
			if err := format.WriteFile(p, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("assimp", "dump", p, dump, "-r").CombinedOutput(); err != nil {
				t.Fatalf("assimp dump failed: %v\n%s", err, out)
			}
			data, err := os.ReadFile(dump)
			if err != nil {
				t.Fatal(err)
			}
			var got assxml
			if err := xml.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			names := make([]string, r.Skeleton.Len())
			for j, jt := range r.Skeleton.Joints {
				names[j] = jt.Name
			}
			joint := map[string]int{}
			for j, id := range jointIDs(names, namer{}) {
				// assimp names nodes by ID, or by name if asked to.
				joint[id], joint[names[j]] = j, j
			}
			const tol = 2e-6 // assimp prints 6 decimals
			nj := r.Skeleton.Len()
			if len(got.Animations) != len(r.Clips) {
				t.Fatalf("%d animations", len(got.Animations))
			}
			for c, cl := range r.Clips {
				a := got.Animations[c]
				if len(a.Nodes) != nj {
					t.Fatalf("clip %d: %d node animations", c, len(a.Nodes))
				}
				for _, na := range a.Nodes {
					j, ok := joint[na.Node]
					if !ok || len(na.Positions) != cl.Frames || len(na.Rotations) != cl.Frames {
						t.Fatalf("clip %d: node %q with %d/%d keys", c, na.Node, len(na.Positions), len(na.Rotations))
					}
					for f := range cl.Frames {
						tr, q := cl.Translation[f*nj+j], cl.Rotation[f*nj+j].Normalize()
						pos, _ := parseFloats(na.Positions[f].Value)
						rot, _ := parseFloats(na.Rotations[f].Value) // x y z w
						if len(pos) != 3 || len(rot) != 4 {
							t.Fatalf("key %d of %s unreadable", f, na.Node)
						}
						if math.Abs(na.Positions[f].Time-1000*float64(f)/cl.FPS) > 1e-3 {
							t.Fatalf("clip %d key %d at %v ms", c, f, na.Positions[f].Time)
						}
						if d := tr.Dist(linalg.Vec3{pos[0], pos[1], pos[2]}); d > tol*(1+tr.Norm()) {
							t.Fatalf("clip %d frame %d joint %s: translation %v, want %v", c, f, na.Node, pos, tr)
						}
						if dot := math.Abs(q.X*rot[0] + q.Y*rot[1] + q.Z*rot[2] + q.W*rot[3]); dot < 1-tol {
							t.Fatalf("clip %d frame %d joint %s: rotation %v, want %v", c, f, na.Node, rot, q)
						}
					}
				}
			}
			for _, b := range got.Bones {
				j, ok := joint[b.Name]
				if !ok {
					t.Fatalf("bone %q is no joint", b.Name)
				}
				m, _ := parseFloats(b.Matrix)
				want := affineRows(linalg.Translation(r.Skeleton.Joints[j].Head.Scale(-1)))
				for k := range want {
					if math.Abs(m[k]-want[k]) > tol*(1+math.Abs(want[k])) {
						t.Fatalf("bone %s offset %v, want %v", b.Name, m, want)
					}
				}
			}
		})
	}
}

func affineRows(a linalg.Affine) []float64 {
	v, _ := parseFloats(matrix(a))
	return v
}
