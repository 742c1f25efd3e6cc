// The few protobuf wire-format primitives this package needs outside
// grpc-js's own (de)serialisers: reading google.rpc.Status from the
// `grpc-status-details-bin` trailer, and writing a Scene byte-exactly the
// way the server hashes it (content_ids.ts). Both are small fixed
// messages, so a dozen lines of wire format beat depending on protobufjs
// directly (it is only a transitive dependency of @grpc/proto-loader).

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LENGTH_DELIMITED = 2;
export const WIRE_FIXED32 = 5;

/** One field of a message as read from the wire. */
export interface WireField {
  number: number;
  wireType: number;
  /** Varint fields: the value (as a JS number; exact up to 2^53). */
  varint?: number;
  /** Length-delimited fields: the bytes (a view into the input). */
  bytes?: Buffer;
}

/** Splits a serialized message into its fields, in wire order. Throws on malformed input. */
export function readFields(data: Buffer): WireField[] {
  const fields: WireField[] = [];
  let offset = 0;
  const readVarint = (): number => {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; ++i) {
      if (offset >= data.length) throw new Error("protobuf: truncated varint");
      const byte = data[offset++]!;
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error("protobuf: varint longer than 10 bytes");
  };
  while (offset < data.length) {
    const key = readVarint();
    const number = Math.floor(key / 8);
    const wireType = key % 8;
    if (number === 0) throw new Error("protobuf: field number 0");
    switch (wireType) {
      case WIRE_VARINT:
        fields.push({ number, wireType, varint: readVarint() });
        break;
      case WIRE_FIXED64:
        if (offset + 8 > data.length) throw new Error("protobuf: truncated fixed64");
        fields.push({ number, wireType, bytes: data.subarray(offset, offset + 8) });
        offset += 8;
        break;
      case WIRE_LENGTH_DELIMITED: {
        const length = readVarint();
        if (offset + length > data.length) throw new Error("protobuf: truncated bytes field");
        fields.push({ number, wireType, bytes: data.subarray(offset, offset + length) });
        offset += length;
        break;
      }
      case WIRE_FIXED32:
        if (offset + 4 > data.length) throw new Error("protobuf: truncated fixed32");
        fields.push({ number, wireType, bytes: data.subarray(offset, offset + 4) });
        offset += 4;
        break;
      default:
        throw new Error(`protobuf: unsupported wire type ${wireType}`);
    }
  }
  return fields;
}

/** Appends protobuf fields to a growing buffer, in the order they are written. */
export class WireWriter {
  private readonly parts: Buffer[] = [];

  private varint(value: number): void {
    const bytes: number[] = [];
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest % 128) | 0x80);
      rest = Math.floor(rest / 128);
    }
    bytes.push(rest);
    this.parts.push(Buffer.from(bytes));
  }

  private key(number: number, wireType: number): void {
    this.varint(number * 8 + wireType);
  }

  /** A double field (wire type 1, little-endian IEEE 754). */
  double(number: number, value: number): this {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleLE(value);
    this.key(number, WIRE_FIXED64);
    this.parts.push(bytes);
    return this;
  }

  /** A string, bytes or embedded-message field. */
  bytes(number: number, value: Buffer | string): this {
    const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
    this.key(number, WIRE_LENGTH_DELIMITED);
    this.varint(bytes.length);
    this.parts.push(bytes);
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}
