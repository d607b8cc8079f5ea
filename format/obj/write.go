package obj

import (
	"bufio"
	"io"
	"strconv"

	"github.com/meshrig/meshrig/mesh"
)

// Write writes m as OBJ: its vertices and its polygons as read (quads stay
// quads). Coordinates use the shortest form that reads back exactly.
func Write(w io.Writer, m *mesh.Mesh) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	buf := make([]byte, 0, 96)
	for _, v := range m.Verts {
		buf = append(buf[:0], 'v')
		for _, x := range v {
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	for k := 0; k < m.NumPolys(); k++ {
		buf = append(buf[:0], 'f')
		for _, i := range m.Poly(k) {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(i+1), 10)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
