package fbx

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
)

// asciiText writes doc as ASCII FBX, as the FBX SDK lays it out: object
// names "Class::Name", numbers in their shortest form (a whole double
// without a point, as the SDK writes 0), arrays as *N { a: … }.
func asciiText(doc *Document) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "; FBX %d.%d.0 project file\n; ----\n\n", doc.Version/1000, doc.Version%1000/100)
	var write func(ns []*Node, depth int, objects bool)
	write = func(ns []*Node, depth int, objects bool) {
		tab := strings.Repeat("\t", depth)
		for _, n := range ns {
			fmt.Fprintf(&b, "%s%s: ", tab, n.Name)
			for k, p := range n.Props {
				if k > 0 {
					b.WriteString(", ")
				}
				switch p.Type {
				case 'S':
					s := p.Bytes
					if i := bytes.Index(s, []byte("\x00\x01")); objects && k == 1 && i >= 0 {
						s = append(append(append([]byte{}, s[i+2:]...), "::"...), s[:i]...)
					}
					fmt.Fprintf(&b, "%q", string(bytes.ReplaceAll(s, []byte{'"'}, []byte("&quot;"))))
				case 'R':
					fmt.Fprintf(&b, "%q", base64.StdEncoding.EncodeToString(p.Bytes))
				case 'Y', 'C', 'I', 'L':
					b.WriteString(strconv.FormatInt(p.Int, 10))
				case 'F', 'D':
					b.WriteString(strconv.FormatFloat(p.Float, 'g', -1, 64))
				default:
					var vals []string
					for _, v := range p.F64 {
						vals = append(vals, strconv.FormatFloat(v, 'g', -1, 64))
					}
					for _, v := range p.F32 {
						vals = append(vals, strconv.FormatFloat(float64(v), 'g', -1, 32))
					}
					for _, v := range p.I32 {
						vals = append(vals, strconv.Itoa(int(v)))
					}
					for _, v := range p.I64 {
						vals = append(vals, strconv.FormatInt(v, 10))
					}
					// Long arrays wrap after a comma, as the SDK's do.
					fmt.Fprintf(&b, "*%d {\n%s\ta: ", len(vals), tab)
					for i, v := range vals {
						if i > 0 {
							b.WriteString(",")
							if i%4 == 0 {
								b.WriteString("\n")
							}
						}
						b.WriteString(v)
					}
					fmt.Fprintf(&b, "\n%s}", tab)
				}
			}
			if len(n.Children) > 0 || n.EmptyList {
				b.WriteString(" {\n")
				write(n.Children, depth+1, depth == 0 && n.Name == "Objects")
				fmt.Fprintf(&b, "%s}", tab)
			}
			b.WriteString("\n")
		}
	}
	write(doc.Nodes, 0, false)
	return b.Bytes()
}

// TestASCIIMatchesBinary: the hand-made rig (with two colour sets)
// written as ASCII reads as the same scene as its binary form — mesh,
// surface, frames, skeleton and skin — in both versions.
func TestASCIIMatchesBinary(t *testing.T) {
	for _, v := range []int{7400, 7500} {
		bin := readTiny(t, withColors(tinyRig(v)), 0, format.SceneOptions{})
		text := asciiText(withColors(tinyRig(v)))
		sc, err := ReadScene(fstest.MapFS{"tiny.fbx": {Data: text}}, "tiny.fbx", format.SceneOptions{})
		if err != nil {
			t.Fatalf("v%d: %v\n%s", v, err, text)
		}
		if !reflect.DeepEqual(sc.Mesh.Verts, bin.Mesh.Verts) || !reflect.DeepEqual(sc.Mesh.Tris, bin.Mesh.Tris) ||
			!reflect.DeepEqual(sc.Mesh.Surface, bin.Mesh.Surface) {
			t.Errorf("v%d: the ASCII mesh differs", v)
		}
		if !reflect.DeepEqual(sc.Sequence.Frames, bin.Sequence.Frames) || !reflect.DeepEqual(sc.Sequence.Clips, bin.Sequence.Clips) {
			t.Errorf("v%d: the ASCII frames differ", v)
		}
		if sc.Rig == nil || !reflect.DeepEqual(sc.Rig.Skeleton, bin.Rig.Skeleton) || !reflect.DeepEqual(sc.Rig.Skin, bin.Rig.Skin) ||
			!reflect.DeepEqual(sc.Rig.Clips, bin.Rig.Clips) {
			t.Errorf("v%d: the ASCII rig differs", v)
		}
	}
}

// TestASCIIRefusals: broken text is one ParseError naming the line (and
// column) where it breaks, never a panic.
func TestASCIIRefusals(t *testing.T) {
	head := "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\n"
	for _, tc := range []struct {
		name, text string
		line       int
		is         error
	}{
		{"unclosed brace", "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n", 4, format.ErrTruncated},
		{"stray brace", head + "}\n", 5, nil},
		{"count", head + "Objects:  {\n\tGeometry: 1, \"Geometry::\", \"Mesh\" {\n\t\tVertices: *3 {\n\t\t\ta: 1,2\n\t\t}\n\t}\n}\n", 7, nil},
		{"not a number", head + "Objects:  {\n\tX: 1.#INF\n}\n", 6, nil},
		{"float index", head + "Objects:  {\n\tPolygonVertexIndex: *2 {\n\t\ta: 1.5,-3\n\t}\n}\n", 7, nil},
		{"open string", head + "Objects:  {\n\tX: \"abc\n}\n", 6, nil},
		{"no colon", head + "Objects  {\n}\n", 5, nil},
		{"array end", head + "X: *1 {\n\ta: 1 2\n}\n", 6, nil},
		{"version 6", "; FBX 6.1.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 6100\n}\n", 3, format.ErrUnsupported},
		{"object model", head + "Objects:  {\n\tModel: \"no id\", \"Mesh\"\n}\n", 6, nil},
		{"geometry", head + "Objects:  {\n\tGeometry: 1, \"Geometry::\", \"Mesh\" {\n\t\tVertices: *3 {\n\t\t\ta: 1,2,3\n\t\t}\n" +
			"\t\tPolygonVertexIndex: *3 {\n\t\t\ta: 0,1,-3\n\t\t}\n\t}\n\tModel: 2, \"Model::m\", \"Mesh\" {\n\t}\n}\n" +
			"Connections:  {\n\tC: \"OO\",1,2\n\tC: \"OO\",2,0\n}\n", 10, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load([]byte(tc.text))
			var pe *format.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			if pe.Line != tc.line || pe.Col < 1 {
				t.Errorf("error %q at line %d col %d, want line %d", err, pe.Line, pe.Col, tc.line)
			}
			if testing.Verbose() {
				t.Log(err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %q does not wrap %v", err, tc.is)
			}
		})
	}
}

// TestRealASCII: Bone_PartiallySkinned.fbx, ASCII FBX 7.7 from Maya,
// reads as a rig of Bone_Geom's mesh (positions within 1e-8 of d: the two
// files round differently) with its colour set, 7 joints and a 400-frame clip the
// rig replays exactly; and every array node it shares with the binary
// SolvedPartialWeights.fbx (the same scene written by Dem Bones) gets the
// binary file's type code.
func TestRealASCII(t *testing.T) {
	text, err := os.ReadFile(shareddata.Path(t, "dembones/Bone_PartiallySkinned.fbx"))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(shareddata.Path(t, "dembones/SolvedPartialWeights.fbx"))
	if err != nil {
		t.Fatal(err)
	}
	da, err := Decode(text)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	types := func(d *Document) map[string]byte {
		m := map[string]byte{}
		var walk func([]*Node)
		walk = func(ns []*Node) {
			for _, n := range ns {
				for _, p := range n.Props {
					if elemSize(p.Type) > 0 {
						m[n.Name] = p.Type
					}
				}
				walk(n.Children)
			}
		}
		walk(d.Nodes)
		return m
	}
	ta, tb := types(da), types(db)
	shared := 0
	for name, c := range ta {
		if b, ok := tb[name]; ok {
			shared++
			if c != b {
				t.Errorf("array %s: ASCII gives %q, the binary file has %q", name, c, b)
			}
		}
	}
	if shared < 15 {
		t.Errorf("only %d array kinds shared with the binary file", shared)
	}
	sc, err := format.ReadScene(shareddata.Path(t, "dembones/Bone_PartiallySkinned.fbx"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	geo, err := format.ReadScene(shareddata.Path(t, "dembones/Bone_Geom.fbx"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := sc.Mesh
	if len(m.Verts) != 754 || len(m.Tris) != 1504 || !reflect.DeepEqual(m.Tris, geo.Mesh.Tris) {
		t.Fatalf("%d vertices, %d triangles; want Bone_Geom's 754 and 1504", len(m.Verts), len(m.Tris))
	}
	worst := 0.0
	for i, v := range m.Verts {
		worst = max(worst, v.Dist(geo.Mesh.Verts[i]))
	}
	if d := mesh.Diagonal(geo.Mesh.Verts); worst > 1e-8*d {
		t.Errorf("vertices stray from Bone_Geom's by %g (d = %g)", worst, d)
	}
	if m.Surface == nil || len(m.Surface.Colors) != 1 || m.Surface.Colors[0].Name != "colorSet1" {
		t.Fatal("no colour set")
	}
	r := sc.Rig
	if r == nil || r.Skeleton.Len() != 7 || len(r.Clips) != 1 || r.Clips[0].Frames != 400 {
		t.Fatalf("rig %v", r != nil)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d array kinds shared with the binary twin, same types; vertices within %.2g of Bone_Geom's", shared, len(ta), worst)
}

// FuzzDecodeASCII: arbitrary text never panics; an error names a line;
// what decodes encodes as binary and decodes back to the same nodes.
func FuzzDecodeASCII(f *testing.F) {
	f.Add(asciiText(microRig(7400)))
	f.Add([]byte("; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\nX: *2 {\n\ta: 1,2\n}\n"))
	f.Add([]byte("FBXHeaderExtension: {\nFBXVersion: 7500\n}\nObjects: {\nModel: 1, \"Model::a\", \"LimbNode\" {\n}\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := DecodeASCII(data)
		if err != nil {
			var pe *format.ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error %v names no line", err)
			}
			return
		}
		again, err := Decode(encode(doc, 0))
		if err != nil {
			t.Fatalf("re-encoded document: %v", err)
		}
		strip(doc.Nodes)
		strip(again.Nodes)
		if !reflect.DeepEqual(doc.Nodes, again.Nodes) {
			t.Fatal("re-encoded document differs")
		}
	})
}

// BenchmarkDecodeASCII decodes Bone_PartiallySkinned.fbx (ASCII, 646 KB of
// text) — MB/s of file.
func BenchmarkDecodeASCII(b *testing.B) {
	data, err := os.ReadFile(shareddata.Path(b, "dembones/Bone_PartiallySkinned.fbx"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
