package collada

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"

	_ "github.com/meshrig/meshrig/format/gltf" // CesiumMan, the input
	"github.com/meshrig/meshrig/format/obj"    // the inputs, and assimp's OBJ export read back
)

// oneJoint binds m rigidly to a single joint: enough to write it.
func oneJoint(m *mesh.Mesh) *rig.Rig {
	sk := rig.Skeleton{Joints: []rig.Joint{{Name: "root", Parent: rig.NoParent}}}
	skin := make(rig.Skin, len(m.Verts))
	for i := range skin {
		skin[i].Weight[0] = 1
	}
	return &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin}
}

// TestAssimpReadsSurface writes rigs whose meshes carry UVs, normals and
// materials as COLLADA 1.4.1 and 1.5, has assimp convert each to OBJ, and
// reads that back: every face corner has the input's position and UV
// (within 1e-6, the printed precision), the material names come back in
// usemtl, and the texture file is named in the library (1.4.1; 1.5 keeps
// the colours). Inputs: an OBJ with a UV and
// normal seam and two materials (one textured), and CesiumMan (one
// textured material, UVs per vertex).
func TestAssimpReadsSurface(t *testing.T) {
	_, err := exec.LookPath("assimp")
	shareddata.RequireTool(t, err == nil, "assimp (Debian package assimp-utils)")
	quads, _, err := format.ReadRestMesh(filepath.Join("..", "obj", "testdata", "textured", "textured.obj"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]*rig.Rig{"textured": oneJoint(quads)}
	if p := filepath.Join(shareddata.Dir(), "gltf", "CesiumMan.glb"); shareddata.Dir() != "" {
		sc, err := format.ReadScene(p, format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		inputs["CesiumMan"] = sc.Rig
	}
	dir := t.TempDir()
	for _, version := range []string{"1.4.1", "1.5"} {
		for name, r := range inputs {
			t.Run(version+"/"+name, func(t *testing.T) {
				assimpSurface(t, r, filepath.Join(dir, version+"-"+name), version)
			})
		}
	}
}

// assimpSurface writes r as base.dae, has assimp export it as OBJ and
// compares what comes back.
func assimpSurface(t *testing.T, r *rig.Rig, base, version string) {
	name := filepath.Base(base)
	{
		{
			dae := base + ".dae"
			if err := format.WriteFile(dae, r, format.WriteOptions{Version: version}); err != nil {
				t.Fatal(err)
			}
			if len(r.Clips) > 0 { // our own reader takes the extra inputs and parts
				sc, err := format.ReadScene(dae, format.SceneOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if len(sc.Mesh.Verts) != len(r.Mesh.Verts) || len(sc.Mesh.Tris) != len(r.Mesh.Tris) {
					t.Fatalf("read back: %d vertices %d triangles, want %d %d", len(sc.Mesh.Verts), len(sc.Mesh.Tris), len(r.Mesh.Verts), len(r.Mesh.Tris))
				}
			}
			back := base + "-assimp.obj"
			if out, err := exec.Command("assimp", "export", dae, back).CombinedOutput(); err != nil {
				t.Fatalf("assimp failed: %v\n%s", err, out)
			}
			f, err := os.Open(back)
			if err != nil {
				t.Fatal(err)
			}
			got, err := obj.Read(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			m, s := r.Mesh, r.Mesh.Surface
			gs := got.Surface
			if len(got.Tris) != len(m.Tris) || gs == nil || len(gs.UVs) != len(s.UVs) {
				t.Fatalf("assimp: %d triangles, surface %v; want %d triangles with %d UV sets", len(got.Tris), gs != nil, len(m.Tris), len(s.UVs))
			}
			// Triangles come back in order: the parts are contiguous.
			for tr := range m.Tris {
				for k := 0; k < 3; k++ {
					v, w := m.Tris[tr][k], got.Tris[tr][k]
					if d := got.Verts[w].Dist(m.Verts[v]); d > 1e-5 {
						t.Fatalf("triangle %d corner %d at %v, want %v", tr, k, got.Verts[w], m.Verts[v])
					}
					a, b := s.UVs[0].At(tr, k, v), gs.UVs[0].At(tr, k, w)
					if abs32(a[0]-b[0]) > 1e-6 || abs32(a[1]-b[1]) > 1e-6 {
						t.Fatalf("triangle %d corner %d: UV %v back, %v written", tr, k, b, a)
					}
				}
			}
			var names []string
			for _, mt := range gs.Materials {
				names = append(names, mt.Name)
			}
			var want []string
			for _, mt := range s.Materials {
				want = append(want, mt.Name)
			}
			if strings.Join(names, ",") != strings.Join(want, ",") {
				t.Fatalf("materials %q back, %q written", names, want)
			}
			lib, err := os.ReadFile(strings.TrimSuffix(back, ".obj") + ".mtl")
			if err != nil {
				t.Fatal(err)
			}
			if version == "1.5" { // colours only (see materialsOf)
				if strings.HasSuffix(name, "textured") && !strings.Contains(string(lib), "Kd 0.100000001 0.5 0.899999976") {
					t.Fatalf("the plain material's colour is lost:\n%s", lib)
				}
				return
			}
			if !regexp.MustCompile(`(?m)^map_Kd `).Match(lib) {
				t.Fatalf("assimp's library names no diffuse texture:\n%s", lib)
			}
			if strings.HasSuffix(name, "textured") && !strings.Contains(string(lib), "map_Kd checker.png") {
				t.Fatalf("the texture file is not referenced by its name:\n%s", lib)
			}
		}
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
