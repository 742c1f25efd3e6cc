// Rich error details of a failed call: motiond sends a serialized
// google.rpc.Status in the `grpc-status-details-bin` trailer (the
// three-argument grpc::Status), whose `details` hold ErrorInfo (why, e.g.
// ROBOT_NOT_REGISTERED), BadRequest (which field) and RetryInfo (when to
// come back). Field numbers are those of proto/google/rpc/*.proto.

import { readFields, WIRE_LENGTH_DELIMITED, WIRE_VARINT } from "./proto_wire";

export const STATUS_DETAILS_TRAILER = "grpc-status-details-bin";

const TYPE_PREFIX = "type.googleapis.com/";
const ERROR_INFO_TYPE = `${TYPE_PREFIX}google.rpc.ErrorInfo`;
const BAD_REQUEST_TYPE = `${TYPE_PREFIX}google.rpc.BadRequest`;
const RETRY_INFO_TYPE = `${TYPE_PREFIX}google.rpc.RetryInfo`;

export interface ErrorInfo {
  reason: string;
  domain: string;
  metadata: Record<string, string>;
}

export interface FieldViolation {
  field: string;
  description: string;
}

export interface StatusDetails {
  code: number;
  message: string;
  errorInfo: ErrorInfo[];
  fieldViolations: FieldViolation[];
  /** google.rpc.RetryInfo.retry_delay in milliseconds, when sent. */
  retryDelayMs?: number;
  /** type_url of every detail, understood or not. */
  detailTypes: string[];
}

function text(bytes: Buffer | undefined): string {
  return bytes ? bytes.toString("utf8") : "";
}

function decodeErrorInfo(data: Buffer): ErrorInfo {
  const info: ErrorInfo = { reason: "", domain: "", metadata: {} };
  for (const field of readFields(data)) {
    if (field.wireType !== WIRE_LENGTH_DELIMITED) continue;
    if (field.number === 1) info.reason = text(field.bytes);
    else if (field.number === 2) info.domain = text(field.bytes);
    else if (field.number === 3 && field.bytes) {
      // map<string, string> entries: key = 1, value = 2.
      let key = "";
      let value = "";
      for (const entry of readFields(field.bytes)) {
        if (entry.number === 1) key = text(entry.bytes);
        else if (entry.number === 2) value = text(entry.bytes);
      }
      info.metadata[key] = value;
    }
  }
  return info;
}

function decodeBadRequest(data: Buffer): FieldViolation[] {
  const violations: FieldViolation[] = [];
  for (const field of readFields(data)) {
    if (field.number !== 1 || !field.bytes) continue;
    const violation: FieldViolation = { field: "", description: "" };
    for (const part of readFields(field.bytes)) {
      if (part.number === 1) violation.field = text(part.bytes);
      else if (part.number === 2) violation.description = text(part.bytes);
    }
    violations.push(violation);
  }
  return violations;
}

function decodeRetryDelayMs(data: Buffer): number | undefined {
  for (const field of readFields(data)) {
    if (field.number !== 1 || !field.bytes) continue;
    let seconds = 0;
    let nanos = 0;
    for (const part of readFields(field.bytes)) {
      if (part.wireType !== WIRE_VARINT) continue;
      if (part.number === 1) seconds = part.varint ?? 0;
      else if (part.number === 2) nanos = part.varint ?? 0;
    }
    return seconds * 1000 + nanos / 1e6;
  }
  return undefined;
}

/**
 * Decodes a serialized google.rpc.Status. Unknown detail types are listed
 * in `detailTypes` and otherwise skipped; malformed bytes throw.
 */
export function decodeStatusDetails(data: Buffer): StatusDetails {
  const details: StatusDetails = {
    code: 0,
    message: "",
    errorInfo: [],
    fieldViolations: [],
    detailTypes: [],
  };
  for (const field of readFields(data)) {
    if (field.number === 1 && field.wireType === WIRE_VARINT) {
      details.code = field.varint ?? 0;
    } else if (field.number === 2) {
      details.message = text(field.bytes);
    } else if (field.number === 3 && field.bytes) {
      // google.protobuf.Any: type_url = 1, value = 2.
      let typeUrl = "";
      let value: Buffer = Buffer.alloc(0);
      for (const part of readFields(field.bytes)) {
        if (part.number === 1) typeUrl = text(part.bytes);
        else if (part.number === 2 && part.bytes) value = part.bytes;
      }
      details.detailTypes.push(typeUrl);
      if (typeUrl === ERROR_INFO_TYPE) details.errorInfo.push(decodeErrorInfo(value));
      else if (typeUrl === BAD_REQUEST_TYPE) details.fieldViolations.push(...decodeBadRequest(value));
      else if (typeUrl === RETRY_INFO_TYPE) details.retryDelayMs = decodeRetryDelayMs(value);
    }
  }
  return details;
}
