import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

/**
 * A software authenticator for API tests (issue 39): makes an ES256 (P-256) credential and signs
 * challenges the way a security key or a phone does, producing the JSON a browser hands the
 * page (@simplewebauthn/browser's shapes). Attestation "none"; the counter grows by one each use,
 * and `clone()` makes a copy that keeps counting from where the original was then.
 */

/** Just enough CBOR (RFC 8949) for attestation objects and COSE keys. */
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string")
    return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export class SoftwareAuthenticator {
  readonly credentialId: Buffer;
  private userHandle = "";
  private rpId = "";

  private constructor(
    private readonly privateKey: KeyObject,
    private readonly publicKey: KeyObject,
    private counter: number,
    credentialId: Buffer,
  ) {
    this.credentialId = credentialId;
  }

  static create(): SoftwareAuthenticator {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    return new SoftwareAuthenticator(privateKey, publicKey, 0, randomBytes(16));
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** A copy of this credential (its key and its counter as they are now). */
  clone(): SoftwareAuthenticator {
    const copy = new SoftwareAuthenticator(this.privateKey, this.publicKey, this.counter, this.credentialId);
    copy.userHandle = this.userHandle;
    copy.rpId = this.rpId;
    return copy;
  }

  /** navigator.credentials.create(): the RegistrationResponseJSON for these options, from `origin`. */
  register(options: CreationOptions, origin: string, overrides: { rpId?: string } = {}) {
    this.rpId = overrides.rpId ?? options.rp.id ?? new URL(origin).hostname;
    this.userHandle = options.user.id;
    const jwk = this.publicKey.export({ format: "jwk" });
    const coseKey = new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x ?? "", "base64url")],
      [-3, Buffer.from(jwk.y ?? "", "base64url")],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([0x01 | 0x04 | 0x40]), // user present, user verified, attested credential data
      this.counterBytes(),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      cbor(coseKey),
    ]);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const clientData = JSON.stringify({
      type: "webauthn.create",
      challenge: options.challenge,
      origin,
      crossOrigin: false,
    });
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(Buffer.from(clientData)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /** navigator.credentials.get(): the AuthenticationResponseJSON, the counter one higher. */
  signIn(options: RequestOptions, origin: string, overrides: { challenge?: string } = {}) {
    this.counter += 1;
    const authData = Buffer.concat([
      sha256(options.rpId ?? this.rpId),
      Buffer.from([0x01 | 0x04]),
      this.counterBytes(),
    ]);
    const clientData = Buffer.from(
      JSON.stringify({
        type: "webauthn.get",
        challenge: overrides.challenge ?? options.challenge,
        origin,
        crossOrigin: false,
      }),
    );
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
    };
  }

  private counterBytes(): Buffer {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(this.counter);
    return bytes;
  }
}
