package render

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// FuzzMesh draws arbitrary vertex positions and triangles (any indices,
// any float bits, any camera): it must return a picture or an error,
// never panic or hang.
func FuzzMesh(f *testing.F) {
	f.Add([]byte{}, 0.0, 0.0, uint8(1))
	f.Add(encode([]float64{0, 0, 0, 1, 0, 0, 0, 1, 0}, []uint16{0, 1, 2}), 30.0, 15.0, uint8(1))
	f.Add(encode([]float64{0, 0, 0, 1e300, 0, 0, 0, -1e300, 0}, []uint16{0, 1, 2, 2, 1, 0}), 90.0, -90.0, uint8(2))
	f.Add(encode([]float64{1, 1, 1, 1, 1, 1, 1, 1, 1}, []uint16{0, 1, 2}), 0.0, 89.0, uint8(0))
	f.Add(encode([]float64{0, 0, 0, 1, 0, math.NaN(), 0, 1, 0}, []uint16{0, 1, 7}), 1e9, math.Inf(1), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, az, el float64, up uint8) {
		if len(data) < 2 {
			return
		}
		nv := int(data[0]) % 16
		data = data[1:]
		var m mesh.Mesh
		for i := 0; i < nv && len(data) >= 24; i++ {
			var p linalg.Vec3
			for k := range p {
				p[k] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*k:]))
			}
			m.Verts = append(m.Verts, p)
			data = data[24:]
		}
		for len(data) >= 6 {
			m.Tris = append(m.Tris, [3]int{
				int(int16(binary.LittleEndian.Uint16(data))), int(int16(binary.LittleEndian.Uint16(data[2:]))),
				int(int16(binary.LittleEndian.Uint16(data[4:])))})
			data = data[6:]
		}
		opt := Options{Width: 64, Height: 48, View: &View{Azimuth: az, Elevation: el, Up: int(up)}}
		img, err := Mesh(&m, nil, nil, opt)
		if err == nil && (img.Rect.Dx() != 64 || img.Rect.Dy() != 48) {
			t.Fatalf("picture %v", img.Rect)
		}
	})
}

// encode packs positions and triangle indices the way FuzzMesh reads them.
func encode(xyz []float64, tris []uint16) []byte {
	b := []byte{byte(len(xyz) / 3)}
	for _, v := range xyz {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	for _, i := range tris {
		b = binary.LittleEndian.AppendUint16(b, i)
	}
	return b
}
