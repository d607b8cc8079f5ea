package usd

import (
	"bytes"
	"io"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
)

// benchRig is a 4000-vertex biped with 60 frames, as .usda.
func benchRig(b *testing.B) []byte {
	r, err := character.Generate(character.Biped, character.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, r, format.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func BenchmarkWrite(b *testing.B) {
	r, err := character.Generate(character.Biped, character.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Write(io.Discard, r, format.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	data := benchRig(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteUSDC(b *testing.B) {
	r, err := character.Generate(character.Biped, character.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := WriteUSDC(io.Discard, r, format.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadUSDC(b *testing.B) {
	r, err := character.Generate(character.Biped, character.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteUSDC(&buf, r, format.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := ReadUSDC(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}
