package collada

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
)

// fuzzLimits keep each fuzz input cheap: sampling up to 4 MiB, small
// documents.
var fuzzLimits = limits{file: 1 << 16, elements: 1 << 12, numbers: 1 << 16, sample: 1 << 22}

// src is a compact <source> of an array (float_array, Name_array…) of
// count elements of stride values.
func src(id, array, values string, stride int) string {
	n, st := countFields(values), ""
	if stride > 1 {
		st = fmt.Sprintf(` stride="%d"`, stride)
	}
	return fmt.Sprintf(`<source id="%[1]s"><%[2]s id="%[1]sa" count="%[3]d">%[4]s</%[2]s><technique_common><accessor source="#%[1]sa" count="%[5]d"%[6]s/></technique_common></source>`,
		id, array, n, values, n/stride, st)
}

// tinyDoc is a compact document: the triangle (0,0,0) (1,0,0) (0,1,0)
// drawn by prim, skinned by the joints of arr with inverse bind matrices
// ibm and weights (vcount, v), over nodes, with animations and clips.
func tinyDoc(prim, bind, arr, joints, ibm, weights, vcount, v, nodes, anims string) string {
	var b strings.Builder
	b.WriteString(`<COLLADA version="1.4.1"><library_geometries><geometry id="g"><mesh>`)
	b.WriteString(src("p", "float_array", "0 0 0 1 0 0 0 1 0", 3))
	b.WriteString(`<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>` + prim + `</mesh></geometry></library_geometries>`)
	b.WriteString(`<library_controllers><controller id="c"><skin source="#g">` + bind)
	b.WriteString(src("j", arr, joints, 1) + src("m", "float_array", ibm, 16) + src("w", "float_array", weights, 1))
	b.WriteString(`<joints><input semantic="JOINT" source="#j"/><input semantic="INV_BIND_MATRIX" source="#m"/></joints>`)
	fmt.Fprintf(&b, `<vertex_weights count="3"><input semantic="JOINT" source="#j" offset="0"/><input semantic="WEIGHT" source="#w" offset="1"/><vcount>%s</vcount><v>%s</v></vertex_weights>`, vcount, v)
	b.WriteString(`</skin></controller></library_controllers>` + anims)
	// The only visual scene is the scene, without a <scene> to say so.
	b.WriteString(`<library_visual_scenes><visual_scene>` + nodes + `<node><instance_controller url="#c"/></node></visual_scene></library_visual_scenes></COLLADA>`)
	return b.String()
}

// tinyAnim is a compact one-channel animation.
func tinyAnim(id, target, times, values string, width int, interp string) string {
	in := ""
	if interp != "" {
		in = `<input semantic="INTERPOLATION" source="#` + id + `i"/>`
		interp = src(id+"i", "Name_array", interp, 1)
	}
	return fmt.Sprintf(`<animation id="%[1]s">%[2]s%[3]s%[4]s<sampler id="%[1]ss"><input semantic="INPUT" source="#%[1]st"/><input semantic="OUTPUT" source="#%[1]so"/>%[5]s</sampler><channel source="#%[1]ss" target="%[6]s"/></animation>`,
		id, src(id+"t", "float_array", times, 1), src(id+"o", "float_array", values, width), interp, in, target)
}

// tinySeeds are FuzzReadScene's inputs, written out (compress shortens
// them to under 1000 bytes, see macros): together they
// reach every stage of the reader — triangles, a polylist and polygons,
// a bind shape, Name_array and IDREF_array joints, whole-matrix, member
// and vector channels, LINEAR and STEP keys, clips, a forest.
func tinySeeds() map[string]string {
	const tri = `<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>`
	const poly = `<polylist count="1"><input semantic="VERTEX" source="#v" offset="0"/><input semantic="NORMAL" source="#n" offset="1"/><vcount>3</vcount><p>0 0 1 0 2 0</p></polylist>`
	const polygons = `<polygons count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></polygons>`
	const id = "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1"
	const back = "1 0 0 -1 0 1 0 0 0 0 1 0 0 0 0 1"
	const turned = "0 -1 0 1 1 0 0 0 0 0 1 0 0 0 0 1"
	const chain = `<node id="a" sid="a"><rotate sid="r">0 0 1 0</rotate><node id="b" sid="b"><matrix sid="m">1 0 0 1 0 1 0 0 0 0 1 0 0 0 0 1</matrix></node></node>`
	return map[string]string{
		"matrix": tinyDoc(tri, "", "Name_array", "a", id, "1", "1 1 1", "0 0 0 0 0 0", `<node id="a" sid="a"><matrix sid="m">`+id+`</matrix></node>`,
			`<library_animations>`+tinyAnim("x", "a/m", "0 1", id+" "+turned, 16, "")+`</library_animations>`+
				`<library_animation_clips><animation_clip id="k" end="1"><instance_animation url="#x"/></animation_clip></library_animation_clips>`),
		"members": tinyDoc(poly, "", "IDREF_array", "a b", id+" "+back, "1", "1 1 1", "0 0 1 0 1 0", chain,
			`<library_animations>`+tinyAnim("y", "a/r.ANGLE", "0 0.5 1", "0 45 90", 1, "STEP LINEAR LINEAR")+`</library_animations>`),
		"forest": tinyDoc(polygons, "<bind_shape_matrix>"+back+"</bind_shape_matrix>", "Name_array", "a b", id+" "+back, "1", "1 1 1", "0 0 1 0 1 0",
			`<node id="a" sid="a"/><node id="b" sid="b"><translate sid="t">1 0 0</translate></node>`,
			`<library_animations>`+tinyAnim("z", "b/t", "0 1", "1 0 0 1 1 0", 3, "")+`</library_animations>`),
	}
}

// macros are the fragments COLLADA repeats most, each written in fuzz
// inputs as one control character, which XML forbids in a document: the
// fuzz target expands them (expand), so seeds stay a few hundred bytes —
// Go minimizes every new input in time quadratic in its length — while
// any document can still be written out in full.
var macros = [32]string{
	'\x01': "<source id=\"", '\x02': "\"><float_array id=\"", '\x03': "</float_array><technique_common><accessor source=\"#",
	'\x04': "\"/></technique_common></source>", '\x05': "<input semantic=\"", '\x06': "\" source=\"#", '\x07': "\" offset=\"",
	'\x08': "<library_", '\x0b': "</library_", '\x0c': "<animation", '\x0e': "</animation>", '\x0f': "<node id=\"",
	'\x10': "</node>", '\x11': "<sampler id=\"", '\x12': "<channel source=\"#", '\x13': "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1",
	'\x14': "\" count=\"", '\x15': "<technique_common><accessor source=\"#", '\x16': "<vertex_weights", '\x17': "\" sid=\"",
	'\x18': "controller", '\x19': "geometries", '\x1a': "<geometry id=\"", '\x1b': "instance_", '\x1c': "visual_scene",
	'\x1d': "Name_array", '\x1e': "\" stride=\"", '\x1f': "<matrix sid=\"",
}

// expand writes out the macros of a fuzz input.
func expand(in []byte) []byte {
	var out []byte
	for _, c := range in {
		if c < byte(len(macros)) && macros[c] != "" {
			out = append(out, macros[c]...)
		} else {
			out = append(out, c)
		}
	}
	return out
}

// compress is expand's inverse for documents without control
// characters: longest fragments first, so none is split.
func compress(doc string) string {
	order := make([]int, 0, len(macros))
	for c, m := range macros {
		if m != "" {
			order = append(order, c)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(macros[b]) - len(macros[a]) })
	for _, c := range order {
		doc = strings.ReplaceAll(doc, macros[c], string(rune(c)))
	}
	return doc
}

// TestTinySeeds checks what each of FuzzReadScene's seeds holds, so the
// fuzzer starts from inputs that reach past the parser, and that they
// stay small once compressed.
func TestTinySeeds(t *testing.T) {
	want := map[string]string{"matrix": "1 joints, 2 frames", "members": "2 joints, 3 frames", "forest": "3 joints, 2 frames"}
	for name, doc := range tinySeeds() {
		t.Run(name, func(t *testing.T) {
			in := compress(doc)
			if string(expand([]byte(in))) != doc {
				t.Fatal("expand(compress(doc)) is not doc")
			}
			if len(in) > 1000 {
				t.Errorf("seed of %d bytes: keep seeds small, the fuzzer minimizes in quadratic time", len(in))
			}
			sc, err := checkRead(t, []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%d joints, %d frames", sc.Rig.Skeleton.Len(), sc.Sequence.F()); got != want[name] {
				t.Errorf("%s, want %s", got, want[name])
			}
		})
	}
}

// checkRead reads doc within fuzzLimits and fails t when what it accepts
// is invalid, differs from a second read, or — when no vertex has more
// than four influences — when the rig does not play the sequence read,
// within the reader's tolerance of 1e-5·(d + the mesh's radius).
func checkRead(t *testing.T, doc []byte) (*format.Scene, error) {
	t.Helper()
	fsys := fstest.MapFS{"x.dae": {Data: doc}}
	sc, wide, err := readScene(fsys, "x.dae", format.SceneOptions{}, fuzzLimits)
	if err != nil {
		return nil, err
	}
	if err := sc.Mesh.Validate(); err != nil {
		t.Fatalf("invalid mesh accepted: %v", err)
	}
	r := sc.Rig
	if err := r.Validate(); err != nil {
		t.Fatalf("invalid rig: %v", err)
	}
	if r.Mesh != sc.Mesh || !slices.Equal(sc.Files, []string{"x.dae"}) {
		t.Fatal("the rig's mesh is not the scene's, or the files are not listed")
	}
	if s := sc.Sequence; s != nil {
		if err := s.Validate(); err != nil {
			t.Fatalf("invalid sequence: %v", err)
		}
		if s.Rest != sc.Mesh || len(s.Clips) != len(r.Clips) {
			t.Fatalf("the sequence's rest is not the mesh, or it has %d clips to the rig's %d", len(s.Clips), len(r.Clips))
		}
		tol := 2e-5*(mesh.Diagonal(sc.Mesh.Verts)+radius(sc.Mesh.Verts)) + 1e-300
		for c, cl := range s.Clips {
			if cl.Len() != r.Clips[c].Frames || cl.Name != r.Clips[c].Name || cl.FPS != r.Clips[c].FPS {
				t.Fatalf("clip %d: sequence %+v, rig %q %d frames at %g fps", c, cl, r.Clips[c].Name, r.Clips[c].Frames, r.Clips[c].FPS)
			}
			for f := 0; f < cl.Len() && !wide; f++ {
				played := r.Frame(nil, c, f)
				for i, p := range s.FrameInto(nil, cl.Start+f) {
					if d := p.Dist(played[i]); !(d <= tol) {
						t.Fatalf("clip %q frame %d vertex %d: read %v, the rig plays %v", cl.Name, f+1, i, p, played[i])
					}
				}
			}
		}
	} else if len(r.Clips) > 0 {
		t.Fatal("rig clips without a sequence")
	}
	again, _, err := readScene(fsys, "x.dae", format.SceneOptions{}, fuzzLimits)
	if err != nil {
		t.Fatalf("second read fails: %v", err)
	}
	if !slices.Equal(sc.Mesh.Verts, again.Mesh.Verts) || (sc.Sequence != nil && !slices.Equal(sc.Sequence.Frames, again.Sequence.Frames)) {
		t.Fatal("two reads differ")
	}
	return sc, nil
}

// FuzzReadScene feeds mutations of tinySeeds (compressed: see macros) to
// the reader, within fuzzLimits: it must not panic or hang, what it
// accepts must be valid and deterministic, and the rig must play what is
// read. Inputs the fuzzer found failing are kept in
// testdata/fuzz/FuzzReadScene.
func FuzzReadScene(f *testing.F) {
	for _, doc := range tinySeeds() {
		f.Add([]byte(compress(doc)))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkRead(t, expand(in))
	})
}
