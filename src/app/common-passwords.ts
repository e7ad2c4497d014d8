/**
 * The list of common passwords refused by the password policy (D15): zxcvbn-ts's "passwords-common"
 * dictionary (about 49,000 entries, lower case), loaded once, on first use, into a Set.
 */
let loading: Promise<ReadonlySet<string>> | undefined;

export function commonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase())),
  );
  return loading;
}
