import type { z } from 'zod';
import type { RouteContract } from '@haven/contracts/contract';

/**
 * A handler's answer with its status (ts-rest style). A plain value is the 200 answer; `reply()`
 * picks another declared status; `redirect()` answers a declared 302.
 */
export class Reply<S extends number = number, B = unknown> {
  constructor(
    readonly status: S,
    readonly body: B,
    /** Set for redirects: the Location header. */
    readonly location?: string,
  ) {}
}

/** An answer with a status other than 200; the route must declare it. */
export function reply<const S extends number, B>(status: S, body: B): Reply<S, B> {
  return new Reply(status, body);
}

/** A 302 to `location`; the route must declare 302. */
export function redirect(location: string): Reply<302, null> {
  return new Reply(302, null, location);
}

type Statuses<R extends RouteContract> = keyof R['responses'] & number;
type BodyFor<R extends RouteContract, S> = S extends keyof R['responses']
  ? R['responses'][S] extends z.ZodType
    ? z.input<R['responses'][S]>
    : never
  : never;

type Primitive = string | number | boolean | bigint | symbol | null | undefined;
type KeysOf<S> = S extends unknown ? keyof S : never;
type ValueOf<S, K> = S extends unknown ? (K extends keyof S ? S[K] : never) : never;

/**
 * `T` when it has no field the schema type `S` does not list, at any depth; otherwise the same shape
 * with each unlisted field typed `never`, so the compiler names the field that would leak.
 */
export type Exact<S, T> = T extends Primitive
  ? T
  : T extends readonly (infer E)[]
    ? S extends readonly (infer SE)[]
      ? Exact<SE, E>[]
      : S
    : T extends object
      ? string extends KeysOf<S>
        ? T
        : { [K in keyof T]: K extends KeysOf<S> ? Exact<ValueOf<S, K>, T[K]> : never }
      : T;

/** Each member of a handler's answer, checked against the schema of the status it answers with. */
type CheckedAnswer<R extends RouteContract, T> =
  T extends Reply<infer S, infer B>
    ? S extends Statuses<R>
      ? Reply<S, Exact<BodyFor<R, S>, B>>
      : Reply<Statuses<R>, unknown>
    : 200 extends Statuses<R>
      ? Exact<BodyFor<R, 200>, T>
      : Reply<Statuses<R>, unknown>;

/** What a handler of route `R` that returns `T` must return: `T` itself when `T` fits the contract. */
export type Checked<R extends RouteContract, T> = CheckedAnswer<R, Awaited<T>>;
