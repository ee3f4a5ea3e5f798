import "reflect-metadata"; // tsyringe, used by @peculiar/x509, needs the Reflect metadata API
import { webcrypto } from "node:crypto";

type CryptoKey = webcrypto.CryptoKey;
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** ECDSA P-256 with SHA-256: accepted by nats-server, redis-server (OpenSSL) and Node. */
const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

/** PEM files written by {@link writeTestCertificates}. */
export interface TestCertificates {
  /** The test CA's certificate. */
  readonly caFile: string;
  /** Server certificate for `localhost` and `127.0.0.1`, signed by the CA. */
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  /** Client certificate (`CN=troupe-client`), signed by the CA. */
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  /** A client certificate signed by another CA: servers that verify clients refuse it. */
  readonly strangerCertFile: string;
  readonly strangerKeyFile: string;
}

/**
 * Generates a CA, a server certificate (SAN `localhost`, `127.0.0.1`), a client
 * certificate and a stranger's (another CA's) client certificate, valid one
 * day, and writes them as PEM files into `folder` (issue #17 TLS test).
 *
 * @param folder - where the files go.
 * @returns their paths.
 */
export async function writeTestCertificates(folder: string): Promise<TestCertificates> {
  const ca = await createCa("Troupe Test CA");
  const stranger = await createCa("Stranger CA");
  const server = await issue(ca, "localhost", [
    { type: "dns", value: "localhost" },
    { type: "ip", value: "127.0.0.1" },
  ]);
  const client = await issue(ca, "troupe-client", []);
  const strangerClient = await issue(stranger, "stranger", []);
  const files = {
    caFile: join(folder, "ca.pem"),
    serverCertFile: join(folder, "server.pem"),
    serverKeyFile: join(folder, "server-key.pem"),
    clientCertFile: join(folder, "client.pem"),
    clientKeyFile: join(folder, "client-key.pem"),
    strangerCertFile: join(folder, "stranger.pem"),
    strangerKeyFile: join(folder, "stranger-key.pem"),
  };
  await writeFile(files.caFile, ca.certificate.toString("pem"));
  await writeFile(files.serverCertFile, server.certificate.toString("pem"));
  await writeFile(files.serverKeyFile, await privateKeyPem(server.keys.privateKey));
  await writeFile(files.clientCertFile, client.certificate.toString("pem"));
  await writeFile(files.clientKeyFile, await privateKeyPem(client.keys.privateKey));
  await writeFile(files.strangerCertFile, strangerClient.certificate.toString("pem"));
  await writeFile(files.strangerKeyFile, await privateKeyPem(strangerClient.keys.privateKey));
  return files;
}

interface Issued {
  readonly certificate: x509.X509Certificate;
  readonly keys: webcrypto.CryptoKeyPair;
}

let serial = 1;
const validity = () => {
  const notBefore = new Date(Date.now() - 60_000);
  return { notBefore, notAfter: new Date(notBefore.getTime() + 24 * 3_600_000) };
};

async function createCa(name: string): Promise<Issued> {
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: (serial++).toString(16).padStart(2, "0"),
    name: `CN=${name}`,
    ...validity(),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, keys };
}

async function issue(
  ca: Issued,
  commonName: string,
  names: { type: "dns" | "ip"; value: string }[],
): Promise<Issued> {
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16).padStart(2, "0"),
    subject: `CN=${commonName}`,
    issuer: ca.certificate.subject,
    ...validity(),
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([
        x509.ExtendedKeyUsage.serverAuth,
        x509.ExtendedKeyUsage.clientAuth,
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
      ...(names.length === 0 ? [] : [new x509.SubjectAlternativeNameExtension(names)]),
    ],
  });
  return { certificate, keys };
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey("pkcs8", key);
  return x509.PemConverter.encode(der, "PRIVATE KEY");
}
