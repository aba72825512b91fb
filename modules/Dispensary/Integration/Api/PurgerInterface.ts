/**
 * Deletes records whose time has passed (expired tokens, lock-out rows, nonces). Add one to
 * `Dispensary\Integration\Model\ExpiredRecordsPurger`'s `purgers` argument in a di.xml:
 *
 *   <type name="Dispensary\Integration\Model\ExpiredRecordsPurger"><arguments>
 *     <argument name="purgers" xsi:type="array">
 *       <item name="oauth_nonces" xsi:type="object">Vendor\Module\Model\NoncePurger</item>
 *     </argument></arguments></type>
 */
export interface PurgerInterface {
  /** Deletes what has expired by `now`; answers how many rows went. */
  purge(now: Date): Promise<number>;
}
