package abc

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
)

// A small Ogawa writer for tests: it lays out groups and data blocks as
// Alembic's own writer does (children before parents, the root group's
// offset in the header), without deduplicating samples.

type ogawaWriter struct {
	w   io.Writer
	pos uint64
	err error
}

// newOgawaWriter writes to w, which must be at the file's start: the 16
// header bytes are left zero for finish to fill.
func newOgawaWriter(w io.Writer) *ogawaWriter {
	o := &ogawaWriter{w: w}
	o.write(make([]byte, headerSize))
	return o
}

func (w *ogawaWriter) write(b []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(b)
	}
	w.pos += uint64(len(b))
}

func (w *ogawaWriter) u64(v uint64) { w.write(binary.LittleEndian.AppendUint64(nil, v)) }

// data writes a data block and returns its child offset (data bit set).
func (w *ogawaWriter) data(b []byte) uint64 {
	if len(b) == 0 {
		return dataBit
	}
	pos := w.pos
	w.u64(uint64(len(b)))
	w.write(b)
	return pos | dataBit
}

// group writes a group of children and returns its offset.
func (w *ogawaWriter) group(kids ...uint64) uint64 {
	if len(kids) == 0 {
		return 0
	}
	pos := w.pos
	w.u64(uint64(len(kids)))
	for _, k := range kids {
		w.u64(k)
	}
	return pos
}

// header returns the file's first 16 bytes for a root group at root.
func header(root uint64) []byte {
	h := make([]byte, headerSize)
	copy(h, "Ogawa")
	h[5], h[6], h[7] = 0xff, 0, 1
	binary.LittleEndian.PutUint64(h[8:], root)
	return h
}

// tprop is a property to write: a compound with props, or a scalar or
// array with one raw sample (values only, no key) per entry of samples.
type tprop struct {
	name     string
	kind     PropertyKind
	pod      POD
	extent   int
	sampling int
	meta     string
	samples  [][]byte
	props    []*tprop
	// gen, when set, makes n samples one at a time (for large files).
	gen func(i int) []byte
	n   int
	// changed, when set, writes its first and last changed samples and
	// total samples in the header: samples then holds the stored ones
	// (sample 0, then first to last).
	changed *[3]uint32
}

func (p *tprop) count() int {
	if p.gen != nil {
		return p.n
	}
	return len(p.samples)
}

func (p *tprop) sample(i int) []byte {
	if p.gen != nil {
		return p.gen(i)
	}
	return p.samples[i]
}

// tobj is an object to write: its top compound's properties and children.
// A meta of "#k" stands for the archive's indexed metadata k (1-9).
type tobj struct {
	name, meta string
	props      []*tprop
	kids       []*tobj
}

// alembicWriter writes an archive of tobj objects.
type alembicWriter struct {
	w         *ogawaWriter
	samplings []TimeSampling
}

func writeArchive(samplings []TimeSampling, archiveMeta string, top []*tobj, indexed ...string) []byte {
	var buf bytes.Buffer
	root, _ := writeArchiveTo(&buf, samplings, archiveMeta, top, indexed...)
	b := buf.Bytes()
	copy(b, header(root))
	return b
}

// writeArchiveTo writes an archive to w, from its start, leaving the
// header zero, and returns the root group's offset for it.
func writeArchiveTo(out io.Writer, samplings []TimeSampling, archiveMeta string, top []*tobj, indexed ...string) (uint64, error) {
	aw := &alembicWriter{w: newOgawaWriter(out), samplings: samplings}
	w := aw.w
	ver := w.data(le32(0))
	lib := w.data(le32(10709))
	topGroup := aw.object(&tobj{kids: top})
	meta := w.data([]byte(archiveMeta))
	var ts []byte
	for _, s := range samplings {
		ts = binary.LittleEndian.AppendUint32(ts, uint32(s.MaxSamples))
		tpc := s.Cycle
		if tpc == 0 {
			tpc = acyclicTPC
		}
		ts = binary.LittleEndian.AppendUint64(ts, math.Float64bits(tpc))
		ts = binary.LittleEndian.AppendUint32(ts, uint32(len(s.Times)))
		for _, t := range s.Times {
			ts = binary.LittleEndian.AppendUint64(ts, math.Float64bits(t))
		}
	}
	tsd := w.data(ts)
	var im []byte
	for _, m := range indexed {
		im = append(im, byte(len(m)))
		im = append(im, m...)
	}
	idx := w.data(im)
	root := w.group(ver, lib, topGroup, meta, tsd, idx)
	return root, w.err
}

// object writes an object's group: properties, children, headers.
func (aw *alembicWriter) object(o *tobj) uint64 {
	kids := []uint64{aw.compound(o.props)}
	var hdr []byte
	for _, k := range o.kids {
		kids = append(kids, aw.object(k))
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(k.name)))
		hdr = append(hdr, k.name...)
		if len(k.meta) == 2 && k.meta[0] == '#' { // an index into the archive's metadata
			hdr = append(hdr, k.meta[1]-'0')
			continue
		}
		hdr = append(hdr, 0xff)
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(k.meta)))
		hdr = append(hdr, k.meta...)
	}
	if len(o.kids) > 0 {
		hdr = append(hdr, make([]byte, 32)...) // the two hashes
	}
	kids = append(kids, aw.w.data(hdr))
	return aw.w.group(kids...)
}

// compound writes a compound's group: its properties' groups, then their
// headers with 4-byte counts and inline metadata.
func (aw *alembicWriter) compound(props []*tprop) uint64 {
	var kids []uint64
	var hdr []byte
	for _, p := range props {
		info := uint32(p.kind) | 2<<2
		if p.meta != "" {
			info |= 0xff << 20
		}
		switch p.kind {
		case Compound:
			kids = append(kids, aw.compound(p.props))
		default:
			info |= uint32(p.pod)<<4 | 0x100 | uint32(p.extent)<<12
			if p.changed != nil {
				info |= 0x200
			}
			var s []uint64
			for i := 0; i < p.count(); i++ {
				s = append(s, aw.w.data(append(make([]byte, keySize), p.sample(i)...)))
				if p.kind == Array {
					s = append(s, aw.w.data(nil))
				}
			}
			kids = append(kids, aw.w.group(s...))
		}
		hdr = binary.LittleEndian.AppendUint32(hdr, info)
		if p.kind != Compound {
			if c := p.changed; c != nil {
				hdr = binary.LittleEndian.AppendUint32(hdr, c[2])
				hdr = binary.LittleEndian.AppendUint32(hdr, c[0])
				hdr = binary.LittleEndian.AppendUint32(hdr, c[1])
			} else {
				hdr = binary.LittleEndian.AppendUint32(hdr, uint32(p.count()))
			}
			hdr = binary.LittleEndian.AppendUint32(hdr, uint32(p.sampling))
		}
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(p.name)))
		hdr = append(hdr, p.name...)
		if p.meta != "" {
			hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(p.meta)))
			hdr = append(hdr, p.meta...)
		}
	}
	kids = append(kids, aw.w.data(hdr))
	return aw.w.group(kids...)
}

func le32(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }

func f32s(v ...float32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func f64s(v ...float64) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func i32s(v ...int32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return b
}

// xformObj is an Xform object with one translate op whose values are
// trans (one sample each) on the given sampling.
func xformObj(name string, sampling int, trans [][3]float64, kids ...*tobj) *tobj {
	var vals [][]byte
	for _, t := range trans {
		vals = append(vals, f64s(t[0], t[1], t[2]))
	}
	return &tobj{name: name, meta: "schema=AbcGeom_Xform_v3;schemaObjTitle=AbcGeom_Xform_v3:.xform", kids: kids,
		props: []*tprop{{name: ".xform", kind: Compound, meta: "schema=AbcGeom_Xform_v3", props: []*tprop{
			{name: ".inherits", kind: Scalar, pod: Bool, extent: 1, samples: [][]byte{{1}}},
			{name: ".ops", kind: Scalar, pod: Uint8, extent: 1, samples: [][]byte{{byte(OpTranslate) << 4}}},
			{name: ".vals", kind: Scalar, pod: Float64, extent: 3, sampling: sampling, samples: vals},
		}}}}
}

// meshObj is a PolyMesh object with positions per sample, counts and
// indices (one sample) and, when uv is not nil, face-varying indexed UVs.
func meshObj(name string, sampling int, pos [][]float32, counts, indices []int32, uv []float32, uvIdx []int32) *tobj {
	var ps [][]byte
	for _, p := range pos {
		ps = append(ps, f32s(p...))
	}
	geom := []*tprop{
		{name: "P", kind: Array, pod: Float32, extent: 3, sampling: sampling, meta: "geoScope=vtx;interpretation=point", samples: ps},
		{name: ".faceIndices", kind: Array, pod: Int32, extent: 1, samples: [][]byte{i32s(indices...)}},
		{name: ".faceCounts", kind: Array, pod: Int32, extent: 1, samples: [][]byte{i32s(counts...)}},
	}
	if uv != nil {
		geom = append(geom, &tprop{name: "uv", kind: Compound, meta: "geoScope=fvr;podName=float32_t;podExtent=2", props: []*tprop{
			{name: ".vals", kind: Array, pod: Float32, extent: 2, meta: "geoScope=fvr", samples: [][]byte{f32s(uv...)}},
			{name: ".indices", kind: Array, pod: Uint32, extent: 1, samples: [][]byte{i32s(uvIdx...)}},
		}})
	}
	return &tobj{name: name, meta: "schema=AbcGeom_PolyMesh_v1;schemaBaseType=AbcGeom_GeomBase_v1;schemaObjTitle=AbcGeom_PolyMesh_v1:.geom",
		props: []*tprop{{name: ".geom", kind: Compound, meta: "schema=AbcGeom_PolyMesh_v1", props: geom}}}
}
