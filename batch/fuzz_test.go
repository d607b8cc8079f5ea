package batch

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseManifest: any bytes give items or an error naming the
// manifest, never a panic; items written back as JSON Lines read the same.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"id":"horse","input":"horse-gallop","bones":20,"skeleton":"none","fps":24,"frames":"1:10"}` + "\n" +
		`{"id":"hero","input":["walk","/abs/run","clips/*.obj"],"output":"chars/hero.dae","rest":"rest.obj","method":"face-clustering"}`))
	f.Add([]byte("# comment\n\n{\"id\":\"a\",\"input\":\"a\",\"rest\":\"frame:2\",\"memory_mb\":64,\"seed\":9}\n"))
	f.Add([]byte(`{"id":"b","input":"b","bone":3}`))
	f.Add([]byte(`{"id":"b","input":[],"output":"../x.glb"}`))
	f.Add([]byte(`{"id":"c","input":"c","bones":11,"search":"full","stretch":true}`))
	f.Add([]byte(`{"id":"c","input":"c","bones":11,"stretch":true,"fast":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := ParseManifest(bytes.NewReader(data), "/lib/m.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "/lib/m.jsonl") {
				t.Fatalf("error %q does not name the manifest", err)
			}
			return
		}
		var buf bytes.Buffer
		for _, it := range items {
			b, err := json.Marshal(line{ID: it.ID, Input: mustJSON(t, it.Inputs), Output: it.Output, MemoryMB: it.MemoryMB, RigOptions: it.Rig})
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(append(b, '\n'))
		}
		again, err := ParseManifest(&buf, "/lib/m.jsonl")
		if err != nil {
			t.Fatalf("items written back: %v\n%s", err, buf.String())
		}
		for k := range items {
			again[k].Line = items[k].Line
		}
		if !reflect.DeepEqual(items, again) {
			t.Fatalf("read back\n%+v\nwant\n%+v", again, items)
		}
	})
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
